-- perfetto_edges: the waits whose waker is known, for flow arrows.
-- -> id INTEGER, waiter_tid INTEGER, ts INTEGER, waker_tid INTEGER, waker_ts INTEGER, kind TEXT,
--    dur INTEGER
SELECT id, waiter_tid, ts, waker_tid, waker_ts, kind, dur FROM blocking_edges
WHERE waker_tid IS NOT NULL AND waker_ts IS NOT NULL
ORDER BY waiter_tid, ts, id
