-- update_startup_offcpu: each startup phase's time of the main thread by
-- scheduler state (engine/startup/startup.c): its thread_states clipped
-- to the phase's window, summed by class as offcpu_states.sql classes
-- them (0 in a class it was never in there); left NULL for a phase no
-- state of the thread covers any of.
-- :tid INTEGER
UPDATE startup_phases AS p SET runnable_ns = x.r, sleeping_ns = x.s, io_ns = x.io, uninterruptible_ns = x.d
FROM (SELECT o.id, sum(CASE WHEN o.state IN ('runnable', 'runnable (preempted)') THEN o.ov ELSE 0 END) AS r,
		sum(CASE WHEN o.state = 'sleeping' THEN o.ov ELSE 0 END) AS s,
		sum(CASE WHEN o.state = 'uninterruptible' AND o.io_wait = 1 THEN o.ov ELSE 0 END) AS io,
		sum(CASE WHEN o.state = 'uninterruptible' AND (o.io_wait IS NULL OR o.io_wait <> 1)
			THEN o.ov ELSE 0 END) AS d
	FROM (SELECT ph.rowid AS id, st.state, st.io_wait,
		min(st.ts + st.dur, ph.ts + ph.dur) - max(st.ts, ph.ts) AS ov
		FROM thread_states st JOIN startup_phases ph ON st.ts < ph.ts + ph.dur AND st.ts + st.dur > ph.ts
		WHERE st.tid = ?1) AS o
	GROUP BY o.id) AS x
WHERE x.id = p.rowid
