-- thread_summary: samples and time span per thread, main thread first.
-- Waker records carry the waiter's begin time in ts, so their own time is end_ts.
-- -> tid INTEGER, name TEXT, main INTEGER, samples INTEGER, first_ns INTEGER, last_ns INTEGER
SELECT t.tid AS tid, coalesce(t.name, 'Thread-' || t.tid) AS name, t.is_main AS main,
       count(s.id) AS samples,
       min(CASE WHEN s.type IN (17, 22, 23) THEN s.end_ts ELSE s.ts END) AS first_ns,
       max(coalesce(s.end_ts, s.ts)) AS last_ns
FROM threads t LEFT JOIN samples s ON s.tid = t.tid
GROUP BY t.tid
ORDER BY t.is_main DESC, count(s.id) DESC, t.tid
