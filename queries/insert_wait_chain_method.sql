-- insert_wait_chain_method: one of a hop's top methods by overlap.
-- :edge_id :hop :rank :frame_id :overlap_ns INTEGER
INSERT INTO wait_chain_methods(edge_id, hop, rank, frame_id, overlap_ns)
VALUES (?1, ?2, ?3, ?4, ?5)
