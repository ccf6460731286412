-- summary_methods: the main thread's methods in the startup window (its
-- phase 'startup'), by self CPU time; the caller keeps the app's top K and
-- sums the rest (engine/fleet/README.md, part 1).
-- -> name TEXT, self_cpu_ns INTEGER, self_ns INTEGER, incl_ns INTEGER
SELECT f.name, m.self_cpu_ns, m.self_ns, coalesce(m.incl_ns, 0)
FROM startup_methods m JOIN frames f ON f.id = m.frame_id
WHERE m.phase = 'startup' AND EXISTS (SELECT 1 FROM startup)
ORDER BY m.self_cpu_ns DESC, f.name, m.frame_id
