-- insert_message: one Looper message of a thread.
-- :tid :msg_id :ts :dur :cpu_dur INTEGER
INSERT INTO messages(tid, msg_id, ts, dur, cpu_dur) VALUES (?1, ?2, ?3, ?4, ?5)
