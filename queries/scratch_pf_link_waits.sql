-- scratch_pf_link_waits: an Object#wait is ended by the last Object#notify
-- of the same object that began while it waited (an earlier notify did
-- not end it; one before the wait began is not its waker).
UPDATE blocking_edges SET (waker_tid, waker_ts) = (
	SELECT n.tid, n.ts FROM pf_notify n
	WHERE n.obj = blocking_edges.lock_id AND n.ts BETWEEN blocking_edges.ts AND blocking_edges.ts + blocking_edges.dur
	ORDER BY n.ts DESC, n.rowid DESC LIMIT 1)
WHERE kind = 'wait' AND waker_tid IS NULL AND waiter_sample_id IS NULL
