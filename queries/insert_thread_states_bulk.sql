-- insert_thread_states_bulk: the writer's current chunk of scheduler states
-- (importers/sched.c through bt_db_insert_thread_state), in the order given;
-- the state by bt_state_name's index, named here.
-- (no parameters; rows come from temp.bulk_states)
INSERT INTO thread_states(tid, ts, dur, state, cpu, waker_tid, io_wait, blocked_function)
SELECT tid, ts, dur, CASE state WHEN 0 THEN 'unknown' WHEN 1 THEN 'running' WHEN 2 THEN 'runnable' WHEN 3 THEN 'sleeping' WHEN 4 THEN 'uninterruptible' WHEN 5 THEN 'stopped' WHEN 6 THEN 'traced' WHEN 7 THEN 'dead' WHEN 8 THEN 'zombie' WHEN 9 THEN 'parked' WHEN 10 THEN 'idle' WHEN 11 THEN 'wakekill' WHEN 12 THEN 'waking' WHEN 13 THEN 'noload' WHEN 14 THEN 'runnable (preempted)' END, cpu, waker_tid, io_wait, blocked_function
FROM temp.bulk_states
