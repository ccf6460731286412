-- startup_blocks_edges: a thread's waits where a trace has no samples
-- (engine/startup). ?1 tid INTEGER -> kind TEXT, ts, end (INTEGER)
SELECT kind, ts, ts + dur FROM blocking_edges WHERE waiter_tid = ?1
