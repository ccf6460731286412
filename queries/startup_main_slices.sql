-- startup_main_slices: a thread's stored slices as a reconstruction ends
-- them (children first), for the startup model of a trace that brought
-- its own slices. ?1 tid INTEGER
-- -> depth, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur, block_dur,
--    idle, type (INTEGER; type NULL: none)
SELECT depth, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur, block_dur, idle, type
FROM slices WHERE tid = ?1 ORDER BY ts + dur, depth DESC, id
