-- insert_ui_frame_method: a method's self time in a thread's display
-- frames (engine/startup/frames.c).
-- :tid :frame_id :self_ns :janky_self_ns INTEGER
INSERT INTO ui_frame_methods(tid, frame_id, self_ns, janky_self_ns) VALUES (?1, ?2, ?3, ?4)
