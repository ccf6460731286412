-- ui_frames_blocks: a thread's duration records (engine/startup/frames.c
-- names a janky frame's blocking by kind from them).
-- ?1 tid INTEGER -> type, ts, end_ts INTEGER
SELECT type, ts, end_ts FROM samples WHERE tid = ?1 AND end_ts IS NOT NULL
