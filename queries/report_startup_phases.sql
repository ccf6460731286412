-- report_startup_phases: the startup's phases in time order, the whole window first;
-- blocked and idle time NULL (and the unexplained rest) where the trace cannot say (meta no_waits, no_idle).
-- -> phase TEXT, ts INTEGER, dur INTEGER, exact INTEGER, cpu_ns INTEGER, blocked_ns INTEGER,
--    idle_ns INTEGER, unexplained_ns INTEGER, runnable_ns INTEGER, sleeping_ns INTEGER, io_ns INTEGER,
--    uninterruptible_ns INTEGER
SELECT phase, ts, dur, exact, cpu_ns, CASE WHEN w.v THEN NULL ELSE blocked_ns END,
	CASE WHEN i.v THEN NULL ELSE idle_ns END, CASE WHEN w.v OR i.v THEN NULL ELSE unexplained_ns END, runnable_ns,
	sleeping_ns, io_ns, uninterruptible_ns
FROM startup_phases,
	(SELECT coalesce((SELECT value FROM meta WHERE key = 'no_waits'), 0) AS v) w,
	(SELECT coalesce((SELECT value FROM meta WHERE key = 'no_idle'), 0) AS v) i
ORDER BY phase <> 'startup', ts, dur DESC, phase
