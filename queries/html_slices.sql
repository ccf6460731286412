-- html_slices: the longest slices of one thread for the HTML timeline:
-- at least :min_ns long, at most :cap of them. A slice never outlasts its
-- parent, and ties keep the parent (earlier, shallower), so every slice
-- kept has its parent kept too.
-- :tid INTEGER, :min_ns INTEGER, :cap INTEGER
-- -> ts, dur, depth, frame_id, cpu_dur, self_dur, block_dur, alloc_bytes,
--    alloc_objects, majflt (all INTEGER)
SELECT ts, dur, depth, frame_id, cpu_dur, self_dur, block_dur, alloc_bytes, alloc_objects, majflt
FROM slices
WHERE tid = :tid AND dur >= :min_ns
ORDER BY dur DESC, ts, depth
LIMIT :cap
