-- ui_frames_messages: a thread's messages, for what a late frame waited
-- behind (engine/startup/late.c sorts them by end).
-- ?1 tid INTEGER -> msg_id, ts, end INTEGER
SELECT msg_id, ts, ts + dur FROM messages WHERE tid = ?1 ORDER BY msg_id
