-- scratch_pf_monitor_unknown: a Perfetto trace's monitor waits whose owner
-- is unknown once every source has been read (the marker's ART name, the
-- nested Lock contention, our export's waker arrows).
-- Result: n INTEGER
SELECT count(*) AS n FROM blocking_edges
WHERE kind = 'monitor' AND waker_tid IS NULL AND waiter_sample_id IS NULL
ORDER BY 1
