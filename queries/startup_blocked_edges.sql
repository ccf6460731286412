-- startup_blocked_edges: a thread's waits overlapping an interval, by kind,
-- with the overlap, where a trace has no samples (engine/startup/startup.c).
-- ?1 tid, ?2 begin, ?3 end (INTEGER)
-- -> kind TEXT, count, overlap_ns (INTEGER)
SELECT kind, count(*), sum(min(ts + dur, ?3) - max(ts, ?2))
FROM blocking_edges WHERE waiter_tid = ?1 AND ts + dur > ?2 AND ts < ?3
GROUP BY kind
