-- binder_server_states: a server thread's time in each scheduler state
-- while it served a binder call (importers/perfetto/pf_binder.c).
-- :tid :from :to INTEGER -> state TEXT, ns INTEGER
SELECT state, CAST(total(min(ts + dur, ?3) - max(ts, ?2)) AS INTEGER) FROM thread_states
WHERE tid = ?1 AND ts < ?3 AND ts + dur > ?2 GROUP BY state ORDER BY state
