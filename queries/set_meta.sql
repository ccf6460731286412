-- set_meta: record one fact about the trace.
-- :key TEXT, :value (any)
INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)
