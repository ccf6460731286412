-- stacks_slices: every slice in id order (a thread's slices in preorder,
-- so a slice's parent is the open slice one level up), for the self values
-- per thread, Looper message and call path of --pprof and --folded.
-- Counters of a slice include its children's (deltas over its span).
-- -> id, tid, depth, parent_id (NULL for an outermost slice), frame_id,
--    msg_id, self_dur, self_cpu_dur, alloc_bytes, alloc_objects, majflt
--    (all INTEGER)
SELECT id, tid, depth, parent_id, frame_id, msg_id, self_dur, self_cpu_dur, alloc_bytes,
       alloc_objects, majflt
FROM slices ORDER BY id
