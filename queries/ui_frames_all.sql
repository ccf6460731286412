-- ui_frames_all: every display frame of the main thread (ui_frames) in
-- time order, for the reports that list or draw them all (the HTML
-- timeline's frames track, the xlsx Frames sheet).
-- -> id, tid, ts, vsync (NULL without), dur, end_ts, period_ns, expected_ts,
--    deadline_ts, janky, missed_vsyncs, draw_ts, draw_dur (INTEGER, the
--    draw's NULL without one), cause TEXT (NULL unless janky)
SELECT id, tid, ts, vsync, dur, end_ts, period_ns, expected_ts, deadline_ts, janky, missed_vsyncs,
	draw_ts, draw_dur, cause
FROM ui_frames
ORDER BY ts, id
