-- perfetto_edges: every wait, linked ones (a waker known) first, for flow
-- arrows and the instants of the rest, with the waiting app frame, its
-- caller and the waker's app frame, as the waits table names them
-- (bt_app_node; 0: unknown; waker_tid and waker_ts 0 unlinked).
-- -> id INTEGER, waiter_tid INTEGER, ts INTEGER, waker_tid INTEGER, waker_ts INTEGER, kind TEXT,
--    dur INTEGER, blocked_in INTEGER, caller INTEGER, waker_frame INTEGER, linked INTEGER
SELECT e.id, e.waiter_tid, e.ts, coalesce(e.waker_tid, 0), coalesce(e.waker_ts, 0), e.kind, e.dur,
       coalesce(wn.frame_id, 0), coalesce(pn.frame_id, 0), coalesce(kn.frame_id, 0),
       e.waker_tid IS NOT NULL AND e.waker_ts IS NOT NULL AS linked
FROM blocking_edges e
LEFT JOIN samples s ON s.id = e.waiter_sample_id
LEFT JOIN nodes wn ON wn.id = bt_app_node(coalesce(s.node_id, e.waiter_node_id))
LEFT JOIN nodes pn ON pn.id = wn.parent_id
LEFT JOIN nodes kn ON kn.id = bt_app_node(e.waker_node_id)
ORDER BY e.waiter_tid, e.ts, e.id
