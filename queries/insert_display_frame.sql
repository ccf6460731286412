-- insert_display_frame: a frame of a Perfetto frame timeline (pf_frametl.c).
-- :kind TEXT, :ts INTEGER, :dur :pid :token :display_frame_token INTEGER or NULL,
-- :layer_name :present_type TEXT, :on_time_finish :gpu_composition :jank_type INTEGER,
-- :jank :prediction_type TEXT, :is_buffer INTEGER
INSERT INTO display_frames(kind, ts, dur, pid, token, display_frame_token, layer_name, present_type,
	on_time_finish, gpu_composition, jank_type, jank, prediction_type, is_buffer)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
