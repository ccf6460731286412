-- perfetto_slices: every slice in id order (a thread's slices in preorder),
-- with frame and record type as ids the exporter resolves from memory.
-- -> tid, depth, ts, dur, cpu_dur, self_dur, self_cpu_dur, block_dur, msg_id,
--    sample_count, alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw, type,
--    wakeup_tid, gap_dur, gap_cpu_dur, frame_id (all INTEGER; type and
--    wakeup_tid may be NULL)
SELECT tid, depth, ts, dur, cpu_dur, self_dur, self_cpu_dur, block_dur, msg_id, sample_count,
       alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw, type, wakeup_tid, gap_dur, gap_cpu_dur,
       frame_id
FROM slices ORDER BY id
