-- summary_values: a trace's summary values (engine/fleet/README.md, part 1),
-- the known ones only: no startup, no startup.*; no time split of the main
-- thread (a trace that brought its own slices), no main.* or process.*.
-- Blocked time by kind lists every kind the trace records anywhere (0
-- where the main thread, or its startup window, has none); off-CPU time by
-- scheduler state only where the trace has the main thread's states there.
-- Display frames (ui_frames) where the trace has them: their count, the
-- janky ones, the janky ones per million frames, and the frame times'
-- p50/p90/p99 (nearest rank), from their summary in meta (as
-- lua/frames.lua reads it).
-- -> name TEXT, value INTEGER
WITH st AS (SELECT tid, ttid_ns, ttfd_ns FROM startup ORDER BY ts LIMIT 1),
win AS (SELECT cpu_ns, blocked_ns, runnable_ns, sleeping_ns, io_ns, uninterruptible_ns FROM startup_phases
	WHERE phase = 'startup' AND EXISTS (SELECT 1 FROM st) ORDER BY ts LIMIT 1),
main AS (SELECT tid, wall_dur, cpu_dur, blocked_dur, runnable_dur, sleeping_dur, io_dur, uninterruptible_dur
	FROM threads WHERE is_main = 1 ORDER BY tid LIMIT 1),
kinds AS (SELECT DISTINCT kind FROM thread_blocking),
all_threads AS (SELECT count(*) AS n, count(wall_dur) AS nw, count(cpu_dur) AS nc, sum(wall_dur) AS wall,
	sum(cpu_dur) AS cpu FROM threads),
fr AS (SELECT coalesce((SELECT value FROM meta WHERE key = 'ui_frames'), 0) AS n,
	(SELECT value FROM meta WHERE key = 'ui_frames_janky') AS janky,
	(SELECT value FROM meta WHERE key = 'ui_frames_p50_ns') AS p50,
	(SELECT value FROM meta WHERE key = 'ui_frames_p90_ns') AS p90,
	(SELECT value FROM meta WHERE key = 'ui_frames_p99_ns') AS p99),
v(name, value) AS (
	SELECT 'startup.ttid_ns', ttid_ns FROM st
	UNION ALL SELECT 'startup.ttfd_ns', ttfd_ns FROM st
	UNION ALL SELECT 'startup.phase.' || phase || '_ns', dur FROM startup_phases
		WHERE phase <> 'startup' AND EXISTS (SELECT 1 FROM st)
	UNION ALL SELECT 'startup.main.cpu_ns', cpu_ns FROM win
	UNION ALL SELECT 'startup.main.blocked_ns', blocked_ns FROM win
	UNION ALL SELECT 'startup.main.blocked_ns.' || k.kind,
		coalesce((SELECT sum(b.dur) FROM startup_blocking b WHERE b.phase = 'startup' AND b.kind = k.kind), 0)
		FROM kinds k WHERE (SELECT blocked_ns FROM win) IS NOT NULL
	UNION ALL SELECT 'startup.main.offcpu_ns.runnable', runnable_ns FROM win
	UNION ALL SELECT 'startup.main.offcpu_ns.sleeping', sleeping_ns FROM win
	UNION ALL SELECT 'startup.main.offcpu_ns.io', io_ns FROM win
	UNION ALL SELECT 'startup.main.offcpu_ns.uninterruptible', uninterruptible_ns FROM win
	UNION ALL SELECT 'main.wall_ns', wall_dur FROM main
	UNION ALL SELECT 'main.cpu_ns', cpu_dur FROM main
	UNION ALL SELECT 'main.offcpu_ns', wall_dur - cpu_dur FROM main
	UNION ALL SELECT 'main.blocked_ns', blocked_dur FROM main
	UNION ALL SELECT 'main.blocked_ns.' || k.kind,
		coalesce((SELECT b.dur FROM thread_blocking b WHERE b.tid = (SELECT tid FROM main) AND b.kind = k.kind), 0)
		FROM kinds k WHERE (SELECT blocked_dur FROM main) IS NOT NULL
	UNION ALL SELECT 'main.offcpu_ns.runnable', runnable_dur FROM main
	UNION ALL SELECT 'main.offcpu_ns.sleeping', sleeping_dur FROM main
	UNION ALL SELECT 'main.offcpu_ns.io', io_dur FROM main
	UNION ALL SELECT 'main.offcpu_ns.uninterruptible', uninterruptible_dur FROM main
	UNION ALL SELECT 'process.wall_ns', wall FROM all_threads WHERE n > 0 AND nw = n
	UNION ALL SELECT 'process.cpu_ns', cpu FROM all_threads WHERE n > 0 AND nc = n
	UNION ALL SELECT 'process.offcpu_ns', wall - cpu FROM all_threads WHERE n > 0 AND nw = n AND nc = n
	UNION ALL SELECT 'frames.count', n FROM fr WHERE n > 0
	UNION ALL SELECT 'frames.janky', janky FROM fr WHERE n > 0
	UNION ALL SELECT 'frames.janky_ppm', (janky * 1000000 + n / 2) / n FROM fr WHERE n > 0
	UNION ALL SELECT 'frames.p50_ns', p50 FROM fr WHERE n > 0
	UNION ALL SELECT 'frames.p90_ns', p90 FROM fr WHERE n > 0
	UNION ALL SELECT 'frames.p99_ns', p99 FROM fr WHERE n > 0
)
SELECT name, min(value) FROM v WHERE value IS NOT NULL AND value >= 0 GROUP BY name ORDER BY name
