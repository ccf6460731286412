-- report_startup_phases: the startup's phases in time order, the whole window first.
-- -> phase TEXT, ts INTEGER, dur INTEGER, exact INTEGER, cpu_ns INTEGER, blocked_ns INTEGER,
--    idle_ns INTEGER, unexplained_ns INTEGER, runnable_ns INTEGER, sleeping_ns INTEGER, io_ns INTEGER,
--    uninterruptible_ns INTEGER
SELECT phase, ts, dur, exact, cpu_ns, blocked_ns, idle_ns, unexplained_ns, runnable_ns, sleeping_ns, io_ns,
	uninterruptible_ns
FROM startup_phases ORDER BY phase <> 'startup', ts, dur DESC, phase
