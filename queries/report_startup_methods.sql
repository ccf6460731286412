-- report_startup_methods: the top methods by self CPU of the whole startup.
-- -> name TEXT, self_cpu_ns INTEGER, self_ns INTEGER
SELECT f.name, m.self_cpu_ns, m.self_ns FROM startup_methods m JOIN frames f ON f.id = m.frame_id
WHERE m.phase = 'startup' ORDER BY m.rank LIMIT 5
