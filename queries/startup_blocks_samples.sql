-- startup_blocks_samples: a thread's duration records (engine/startup), to
-- overlap with each phase, and its samples in [?2, ?3) (the window), whose
-- spacing is the sampling interval; in file order. Two scans a scratch
-- analysis's samples table filters as it reads (db_samples.c), not one
-- that SQLite reads whole.
-- ?1 tid ?2 ?3 INTEGER -> type, ts, end_ts (INTEGER; NULL for a point sample)
SELECT type, ts, end_ts FROM (
	SELECT id, type, ts, end_ts FROM samples WHERE tid = ?1 AND end_ts IS NOT NULL
	UNION ALL
	SELECT id, type, ts, end_ts FROM samples WHERE tid = ?1 AND end_ts IS NULL AND ts >= ?2 AND ts < ?3)
ORDER BY id
