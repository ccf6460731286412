-- summary_frame_times: each display frame's time (ui_frames: from its
-- start to its end, the draw's end where the trace has it), for the
-- summary's frame-time sketch (engine/fleet/README.md, part 1).
-- -> ns INTEGER
SELECT end_ts - ts FROM ui_frames ORDER BY id
