-- insert_node: one (parent node, frame) pair of the call-stack tree.
-- :id INTEGER, :parent_id INTEGER or NULL, :frame_id INTEGER, :depth INTEGER
INSERT INTO nodes(id, parent_id, frame_id, depth) VALUES (?1, ?2, ?3, ?4)
