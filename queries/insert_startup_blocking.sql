-- insert_startup_blocking: a phase's blocked time of one kind on the main thread.
-- :phase :kind TEXT :count :dur INTEGER
INSERT INTO startup_blocking(phase, kind, count, dur) VALUES (?1, ?2, ?3, ?4)
