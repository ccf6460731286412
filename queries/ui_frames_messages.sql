-- ui_frames_messages: a thread's stored messages, for what a late frame
-- waited behind, where its slices are read back (engine/startup/startup.c,
-- bt_startup_from_slices; the importers give them as they store them).
-- ?1 tid INTEGER -> msg_id, ts, end INTEGER
SELECT msg_id, ts, ts + dur FROM messages WHERE tid = ?1 ORDER BY msg_id
