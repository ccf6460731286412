-- insert_edge: a wait and, when linked, the record that ended it.
-- :waiter_tid :waiter_sample_id INTEGER, :kind TEXT, :lock_id INTEGER or NULL,
-- :ts :dur INTEGER, :waker_tid :waker_sample_id :waker_ts :waker_node_id INTEGER or NULL
INSERT INTO blocking_edges(waiter_tid, waiter_sample_id, kind, lock_id, ts, dur,
                           waker_tid, waker_sample_id, waker_ts, waker_node_id)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
