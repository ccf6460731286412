-- insert_wait_chain: one hop of a main-thread wait's chain.
-- :edge_id :hop :tid :ts :dur INTEGER, :blocked_kind TEXT or NULL,
-- :blocked_ns INTEGER, :node_id INTEGER or NULL
INSERT INTO wait_chain(edge_id, hop, tid, ts, dur, blocked_kind, blocked_ns, node_id)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
