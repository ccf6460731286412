-- insert_sleep_edges_bulk: the writer's current chunk of kernel-waker edges
-- (a main thread's sleeps from the scheduler; importers/sched.c through
-- bt_db_insert_sleep_edge), in the order given: kind 0 sleep, 1 io.
-- (no parameters; rows come from temp.bulk_edges)
INSERT INTO blocking_edges(waiter_tid, kind, ts, dur, waker_tid, waker_ts)
SELECT waiter_tid, CASE kind WHEN 0 THEN 'sleep' ELSE 'io' END, ts, dur, waker_tid, waker_ts
FROM temp.bulk_edges
