-- html_calltree: one thread's call paths worth drawing in the flame graph
-- (inclusive wall time at least :min_ns), parents before children. A
-- callee never has more inclusive time than its caller, so every path
-- kept has its caller kept too.
-- :tid INTEGER, :min_ns INTEGER
-- -> id, parent_id (NULL for an outermost frame), frame_id, incl_ns,
--    incl_cpu_ns, incl_blocked_ns, incl_alloc_bytes, incl_alloc_objects,
--    incl_majflt (all INTEGER)
SELECT id, parent_id, frame_id, incl_ns, incl_cpu_ns, incl_blocked_ns, incl_alloc_bytes,
       incl_alloc_objects, incl_majflt
FROM calltree
WHERE tid = :tid AND incl_ns >= :min_ns
ORDER BY depth, id
