-- scratch_pf_insert_held: a slice of a method some monitor contention says
-- its owner locked in ended (the owner's release, if it was the owner's
-- and ended inside the wait).
-- :tid :frame :end INTEGER
INSERT INTO pf_held(tid, frame, end_ts) VALUES (?1, ?2, ?3)
