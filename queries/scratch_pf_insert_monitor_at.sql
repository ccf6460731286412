-- scratch_pf_insert_monitor_at: a monitor wait whose owner is known, and
-- the frame of the method ART says the owner locked in.
-- :tid :ts :frame INTEGER
INSERT INTO pf_monitor_at(tid, ts, frame) VALUES (?1, ?2, ?3)
