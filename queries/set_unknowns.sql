-- set_unknowns: meta no_waits and no_idle (1) of a trace whose slices came
-- with it (profile_store.c asks only then). With no blocking edges and no
-- scheduler states it cannot say when its threads waited; with no Looper
-- messages and no idle time in any method, when they idled: reports then
-- say "not in this trace" where they would print 0.
INSERT OR REPLACE INTO meta(key, value)
SELECT 'no_waits', 1 WHERE NOT EXISTS (SELECT 1 FROM blocking_edges) AND NOT EXISTS (SELECT 1 FROM thread_states)
UNION ALL
SELECT 'no_idle', 1 WHERE NOT EXISTS (SELECT 1 FROM messages) AND NOT EXISTS (SELECT 1 FROM methods WHERE self_idle_ns > 0)
