-- top_leaf_frames: the frames most often at the top of a recorded stack.
-- :limit INTEGER -> frame TEXT, samples INTEGER, threads INTEGER
SELECT f.name AS frame, count(*) AS samples, count(DISTINCT s.tid) AS threads
FROM samples s JOIN nodes n ON n.id = s.node_id JOIN frames f ON f.id = n.frame_id
GROUP BY f.id
ORDER BY samples DESC, f.name
LIMIT ?1
