-- nodes_all: the call-stack tree, for reconstruction.
-- -> id INTEGER, parent_id INTEGER, frame_id INTEGER
SELECT id, coalesce(parent_id, 0), frame_id FROM nodes ORDER BY id
