-- insert_ui_frame: a main-thread frame (engine/startup/frames.c).
-- :id :tid :ts INTEGER, :vsync INTEGER or NULL, :dur :end_ts :period_ns
-- :expected_ts :deadline_ts :missed_vsyncs INTEGER, :draw_ts :draw_dur
-- INTEGER or NULL, :cause TEXT or NULL
INSERT INTO ui_frames(id, tid, ts, vsync, dur, end_ts, period_ns, expected_ts, deadline_ts, janky,
	missed_vsyncs, draw_ts, draw_dur, cause)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 > 0, ?10, ?11, ?12, ?13)
