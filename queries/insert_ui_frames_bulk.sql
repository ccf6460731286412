-- insert_ui_frames_bulk: the writer's current chunk of main-thread display
-- frames (engine/startup/frames.c through bt_db_insert_ui_frame), ids
-- explicit; janky when it missed a vsync.
-- (no parameters; rows come from temp.bulk_ui_frames)
INSERT INTO ui_frames(id, tid, ts, vsync, dur, end_ts, period_ns, expected_ts, deadline_ts, janky,
	missed_vsyncs, draw_ts, draw_dur, cause)
SELECT id, tid, ts, vsync, dur, end_ts, period_ns, expected_ts, deadline_ts, missed_vsyncs > 0,
	missed_vsyncs, draw_ts, draw_dur, cause
FROM temp.bulk_ui_frames
