-- ui_frames_waits: a thread's waits with their holder, the innermost app
-- frame of the waker's stack (bt_app_node) where a waker is known.
-- ?1 tid INTEGER -> kind TEXT, ts, end INTEGER, holder TEXT or NULL
SELECT e.kind, e.ts, e.ts + e.dur,
	(SELECT f.name FROM nodes n JOIN frames f ON f.id = n.frame_id WHERE n.id = bt_app_node(e.waker_node_id))
FROM blocking_edges e WHERE e.waiter_tid = ?1 AND e.dur > 0
