-- insert_thread_blocking: one thread's blocking records of one kind
-- (engine/profile/profile_store.c).
-- :tid INTEGER :kind TEXT :count :dur INTEGER
INSERT INTO thread_blocking(tid, kind, count, dur) VALUES (?1, ?2, ?3, ?4)
