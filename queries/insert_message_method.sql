-- insert_message_method: one of a message's top methods. A message id
-- that comes back (see insert_message) keeps its first part's rows.
-- :tid :msg_id :rank :frame_id :self_ns :self_cpu_ns :incl_ns :incl_cpu_ns
INSERT INTO message_methods VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (tid, msg_id, rank) DO NOTHING
