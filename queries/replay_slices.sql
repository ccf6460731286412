-- replay_slices: every stored slice in id order (a thread's slices in
-- preorder, threads one after the other), with all its columns, for
-- replaying a trace database's slices to the exports' taps.
-- -> id, tid, depth, parent_id (NULL for an outermost slice), frame_id, ts,
--    dur, cpu_dur, self_dur, self_cpu_dur, block_dur, msg_id, sample_count,
--    alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw, type (NULL: none),
--    wakeup_tid (NULL: none), gap_dur, gap_cpu_dur, idle (all INTEGER)
SELECT id, tid, depth, parent_id, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur, block_dur,
       msg_id, sample_count, alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw, type, wakeup_tid,
       gap_dur, gap_cpu_dur, idle
FROM slices ORDER BY id
