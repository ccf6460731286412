-- startup_main_slices: a thread's stored slices in preorder (their ids:
-- a trace that brought its own slices stores them so, engine/recon/feed.h),
-- for the startup model, which takes them as they ended (children first)
-- without a sort of the whole thread. ?1 tid INTEGER
-- -> depth, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur, block_dur,
--    idle, type (INTEGER; type NULL: none)
SELECT depth, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur, block_dur, idle, type
FROM slices WHERE tid = ?1 ORDER BY id
