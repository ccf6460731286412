-- xlsx_blocking_kinds: one thread's blocked time by kind, for the xlsx chart
-- (the sums thread.main.blocked_ns.<kind> reports). ?1 tid.
-- -> kind TEXT, count INTEGER, blocked_ns INTEGER
SELECT kind, sum(self_count), sum(self_ns) AS ns FROM method_blocking
WHERE tid = ?1 GROUP BY kind HAVING ns > 0 ORDER BY ns DESC, kind
