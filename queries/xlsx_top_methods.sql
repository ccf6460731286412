-- xlsx_top_methods: the methods with the most self time of one measure, for
-- the xlsx charts. ?1 tid (NULL: all threads), ?2 measure (0 CPU ns,
-- 1 off-CPU ns, 2 allocated bytes, 3 wall ns: for a trace without CPU
-- time, whose CPU values are NULL), ?3 how many.
-- -> name TEXT, value INTEGER
SELECT f.name, sum(CASE ?2 WHEN 0 THEN m.self_cpu_ns WHEN 1 THEN m.self_ns - m.self_cpu_ns
                          WHEN 3 THEN m.self_ns ELSE m.self_alloc_bytes END) AS v
FROM methods m JOIN frames f ON f.id = m.frame_id
WHERE ?1 IS NULL OR m.tid = ?1
GROUP BY m.frame_id HAVING v > 0 ORDER BY v DESC, f.name LIMIT ?3
