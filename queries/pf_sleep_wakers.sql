-- pf_sleep_wakers: the threads that ended a sleep (kernel wakers) whose
-- slice stack at the wake is not known yet.
-- -> waker_tid INTEGER
SELECT DISTINCT waker_tid FROM blocking_edges
WHERE kind IN ('sleep', 'io') AND waker_tid > 0 AND waker_node_id IS NULL
