-- sys_thread_states: a system trace's scheduler states, to copy those of
-- a capture's threads into its database (engine/recon/join.c).
-- -> tid, ts, dur INTEGER, state TEXT, cpu, waker_tid, io_wait INTEGER or NULL, blocked_function TEXT or NULL
SELECT tid, ts, dur, state, cpu, waker_tid, io_wait, blocked_function FROM thread_states ORDER BY tid, ts
