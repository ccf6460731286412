-- insert_thread_state: one state of a thread (the scheduler's events: importers/sched.c).
-- :tid :ts :dur INTEGER, :state TEXT, :cpu :waker_tid :io_wait INTEGER or NULL,
-- :blocked_function TEXT or NULL
INSERT INTO thread_states(tid, ts, dur, state, cpu, waker_tid, io_wait, blocked_function)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
