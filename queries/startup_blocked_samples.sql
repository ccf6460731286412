-- startup_blocked_samples: a thread's duration records overlapping an
-- interval, by record type, with the overlap (engine/startup/startup.c).
-- ?1 tid, ?2 begin, ?3 end (INTEGER)
-- -> type, count, overlap_ns (INTEGER)
SELECT type, count(*), sum(min(end_ts, ?3) - max(ts, ?2))
FROM samples WHERE tid = ?1 AND end_ts IS NOT NULL AND end_ts > ?2 AND ts < ?3
GROUP BY type
