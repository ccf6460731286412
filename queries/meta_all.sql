-- meta_all: every fact about the trace.
-- -> key TEXT, value
SELECT key, value FROM meta ORDER BY key
