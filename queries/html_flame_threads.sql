-- html_flame_threads: the threads of the HTML report's flame graph, main
-- thread first, then by wall time (their outermost frames' inclusive,
-- idle time left out unless ?1 is 1).
-- ?1 idle INTEGER
-- -> tid INTEGER, name TEXT, main INTEGER, total_ns INTEGER, paths INTEGER,
--    alloc_bytes INTEGER (its outermost frames')
SELECT c.tid, coalesce(t.name, 'tid ' || c.tid), coalesce(t.is_main, 0),
       sum(CASE WHEN c.parent_id IS NULL
                THEN c.incl_ns + CASE WHEN ?1 THEN c.incl_idle_ns ELSE 0 END ELSE 0 END) AS total,
       count(*),
       sum(CASE WHEN c.parent_id IS NULL THEN c.incl_alloc_bytes ELSE 0 END)
FROM calltree c LEFT JOIN threads t ON t.tid = c.tid
GROUP BY c.tid
ORDER BY 3 DESC, total DESC, c.tid
