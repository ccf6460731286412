-- insert_method_blocking: blocked time of a method by kind.
-- :tid :frame_id :kind :self_count :self_ns :incl_count :incl_ns
INSERT INTO method_blocking VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
