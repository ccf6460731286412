-- offcpu_states: every thread state as stored (engine/recon/offcpu.c takes
-- them in any order: no sort), with its off-CPU class: 1 runnable
-- (waiting for a CPU), 2 sleeping, 3 I/O (uninterruptible with io_wait =
-- 1), 4 uninterruptible otherwise, 0 any other state (running, dead, ...).
-- -> tid INTEGER, ts INTEGER, dur INTEGER, class INTEGER
SELECT tid, ts, dur,
	CASE state WHEN 'runnable' THEN 1 WHEN 'runnable (preempted)' THEN 1 WHEN 'sleeping' THEN 2
		WHEN 'uninterruptible' THEN CASE WHEN io_wait = 1 THEN 3 ELSE 4 END ELSE 0 END AS class
FROM thread_states ORDER BY rowid
