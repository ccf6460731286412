-- html_calltree: one thread's call paths worth drawing in the flame graph
-- (inclusive wall time at least ?2, or allocated bytes at least ?4),
-- parents before children. A callee never has more inclusive time or
-- bytes than its caller, so every path kept has its caller kept too. Idle
-- time is left out unless ?3 is 1.
-- ?1 tid, ?2 min_ns, ?3 idle, ?4 min_bytes (INTEGER)
-- -> id, parent_id (NULL for an outermost frame), frame_id, incl_ns,
--    incl_cpu_ns, incl_blocked_ns, incl_alloc_bytes, incl_alloc_objects,
--    incl_majflt (all INTEGER)
SELECT id, parent_id, frame_id, incl_ns + CASE WHEN ?3 THEN incl_idle_ns ELSE 0 END AS wall,
       incl_cpu_ns, incl_blocked_ns, incl_alloc_bytes, incl_alloc_objects, incl_majflt
FROM calltree
WHERE tid = ?1 AND (incl_ns + CASE WHEN ?3 THEN incl_idle_ns ELSE 0 END >= ?2
                    OR incl_alloc_bytes >= ?4)
ORDER BY depth, id
