-- insert_message: one Looper message of a thread. A message whose slices
-- come back after another message's (a nested loop, a kFlush span that
-- repeats the message id) is one message: it is widened to cover both
-- parts and their CPU time is added.
-- :tid :msg_id :ts :dur :cpu_dur :block_dur :idle_dur :alloc_bytes INTEGER
INSERT INTO messages(tid, msg_id, ts, dur, cpu_dur, block_dur, idle_dur, alloc_bytes)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (tid, msg_id) DO UPDATE SET
	dur = max(ts + dur, excluded.ts + excluded.dur) - min(ts, excluded.ts),
	ts = min(ts, excluded.ts),
	cpu_dur = cpu_dur + excluded.cpu_dur,
	block_dur = block_dur + excluded.block_dur,
	idle_dur = idle_dur + excluded.idle_dur,
	alloc_bytes = alloc_bytes + excluded.alloc_bytes
