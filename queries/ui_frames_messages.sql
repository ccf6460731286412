-- ui_frames_messages: a thread's messages by end, for what a late frame
-- waited behind (engine/startup/late.c).
-- ?1 tid INTEGER -> msg_id, ts, end INTEGER
SELECT msg_id, ts, ts + dur FROM messages WHERE tid = ?1 ORDER BY ts + dur, msg_id
