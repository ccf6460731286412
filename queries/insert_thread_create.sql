-- insert_thread_create: a "pthread_create tid=N" slice.
-- :slice_id :tid :ts :created_tid INTEGER
INSERT INTO thread_creates(slice_id, tid, ts, created_tid) VALUES (?1, ?2, ?3, ?4)
