-- insert_thread_state: one scheduler state of a thread, as a system trace
-- of the capture's time gives it (engine/recon/join.c).
-- :tid :ts :dur INTEGER, :state TEXT, :cpu :waker_tid :io_wait INTEGER or NULL, :blocked_function TEXT or NULL
INSERT INTO thread_states(tid, ts, dur, state, cpu, waker_tid, io_wait, blocked_function)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
