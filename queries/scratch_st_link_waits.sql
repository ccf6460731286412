-- scratch_st_link_waits: an Object#wait no wakeup of the scheduler's ended
-- (a trace without sched events) is ended by the last Object#notify of the
-- same object, on another thread, that began while it waited.
UPDATE blocking_edges SET (waker_tid, waker_ts) = (
	SELECT n.tid, n.ts FROM st_notify n
	WHERE n.obj = blocking_edges.lock_id AND n.tid != blocking_edges.waiter_tid
	  AND n.ts BETWEEN blocking_edges.ts AND blocking_edges.ts + blocking_edges.dur
	ORDER BY n.ts DESC, n.rowid DESC LIMIT 1)
WHERE kind = 'wait' AND waker_tid IS NULL AND waiter_sample_id IS NULL
