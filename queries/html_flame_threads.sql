-- html_flame_threads: the threads of the HTML report's flame graph, main
-- thread first, then by wall time (their outermost frames' inclusive,
-- idle time left out unless ?1 is 1). The call tree is summed by thread
-- before the threads are joined: one lookup a thread, not a row.
-- ?1 idle INTEGER
-- -> tid INTEGER, name TEXT, main INTEGER, total_ns INTEGER, paths INTEGER,
--    alloc_bytes INTEGER (its outermost frames')
SELECT c.tid, coalesce(t.name, 'tid ' || c.tid), coalesce(t.is_main, 0), c.total, c.paths, c.alloc
FROM (SELECT tid,
             sum(CASE WHEN parent_id IS NULL
                      THEN incl_ns + CASE WHEN ?1 THEN incl_idle_ns ELSE 0 END ELSE 0 END) AS total,
             count(*) AS paths,
             sum(CASE WHEN parent_id IS NULL THEN incl_alloc_bytes ELSE 0 END) AS alloc
      FROM calltree GROUP BY tid) c
LEFT JOIN threads t ON t.tid = c.tid
ORDER BY 3 DESC, c.total DESC, c.tid
