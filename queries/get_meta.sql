-- get_meta: one fact about the trace.
-- :key TEXT -> value
SELECT value FROM meta WHERE key = ?1
