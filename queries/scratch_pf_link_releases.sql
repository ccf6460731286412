-- scratch_pf_link_releases: a monitor wait's owner released the lock when
-- its slice of the method it locked in (the contention's "at METHOD")
-- ended: the last such end inside the wait, where the trace has one (a
-- btrace 2.0 method slice); else the release stays the wait's end.
UPDATE blocking_edges SET waker_ts = coalesce((
	SELECT max(h.end_ts) FROM pf_monitor_at m JOIN pf_held h ON h.frame = m.frame
	WHERE m.tid = blocking_edges.waiter_tid AND m.ts = blocking_edges.ts AND h.tid = blocking_edges.waker_tid
	  AND h.end_ts BETWEEN blocking_edges.ts AND blocking_edges.ts + blocking_edges.dur), waker_ts)
WHERE kind = 'monitor' AND waker_tid IS NOT NULL AND waiter_sample_id IS NULL
  AND (waiter_tid, ts) IN (SELECT tid, ts FROM pf_monitor_at)
