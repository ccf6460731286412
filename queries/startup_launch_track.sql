-- startup_launch_track: system_server's launch in flight at ?1 (the app's
-- activity start), from a trace that stores every process's async slices
-- (systrace): its launchingActivity#N (API 32+, from the intent), else its
-- launching: PKG; the latest to begin. ?1 ts INTEGER
-- -> name TEXT, ts, dur (INTEGER)
SELECT name, ts, dur FROM track_slices
WHERE ((name GLOB 'launchingActivity#[0-9]*' AND instr(name, ':') = 0) OR name GLOB 'launching: ?*')
	AND dur > 0 AND ts <= ?1 AND ts + dur >= ?1
ORDER BY name GLOB 'launchingActivity#*' DESC, ts DESC, name
LIMIT 1
