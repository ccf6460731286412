-- insert_ui_frame_blocking: a thread's blocked time of one kind in its
-- display frames, every record's (holder NULL) or the waits a holder ended
-- (engine/startup/frames.c).
-- :tid INTEGER, :kind TEXT, :holder TEXT or NULL, :ns :janky_ns INTEGER
INSERT INTO ui_frame_blocking(tid, kind, holder, ns, janky_ns) VALUES (?1, ?2, ?3, ?4, ?5)
