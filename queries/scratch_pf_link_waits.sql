-- scratch_pf_link_waits: an Object#wait is ended by the last Object#notify
-- of the same object that began while it waited, an Unsafe#park by the
-- last Unsafe#unpark of the parked thread (the same hash) that began while
-- it was parked (an earlier one did not end it; one before the wait began
-- is not its waker).
UPDATE blocking_edges SET (waker_tid, waker_ts) = (
	SELECT n.tid, n.ts FROM pf_notify n
	WHERE n.kind = blocking_edges.kind AND n.obj = blocking_edges.lock_id
	  AND n.ts BETWEEN blocking_edges.ts AND blocking_edges.ts + blocking_edges.dur
	ORDER BY n.ts DESC, n.rowid DESC LIMIT 1)
WHERE kind IN ('wait', 'park') AND waker_tid IS NULL AND waiter_sample_id IS NULL
