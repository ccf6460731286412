-- startup_blocks_samples: a thread's duration records (engine/startup), to
-- overlap with each phase. ?1 tid INTEGER -> type, ts, end_ts (INTEGER)
SELECT type, ts, end_ts FROM samples WHERE tid = ?1 AND end_ts IS NOT NULL
