-- scratch_pf_waker_stacks: the slice stack of the thread that woke a
-- sleep (a kernel waker, pf_pair.c's sleep and io edges) at the wake: its
-- slices open then, outermost first, become stack nodes (one per distinct
-- path of frames, ids after every node's and frame's), the edge's
-- waker_node_id the innermost. The waker's slices are copied once, with
-- an index, for the lookups (slices may be a table read from the spill).
CREATE TEMP TABLE pf_ws (id INTEGER PRIMARY KEY, tid INTEGER, ts INTEGER, end_ts INTEGER, depth INTEGER,
	parent_id INTEGER, frame_id INTEGER);
INSERT INTO pf_ws
SELECT id, tid, ts, ts + dur, depth, parent_id, frame_id FROM slices
WHERE tid IN (SELECT DISTINCT waker_tid FROM blocking_edges
              WHERE kind IN ('sleep', 'io') AND waker_tid > 0 AND waker_node_id IS NULL);
CREATE INDEX temp.pf_ws_at ON pf_ws(tid, ts);
CREATE TEMP TABLE pf_wk (edge INTEGER PRIMARY KEY, slice INTEGER NOT NULL);
INSERT INTO pf_wk
SELECT e.id, (SELECT s.id FROM pf_ws s WHERE s.tid = e.waker_tid AND s.ts <= e.waker_ts AND s.end_ts > e.waker_ts
              ORDER BY s.ts DESC, s.depth DESC LIMIT 1) AS slice
FROM blocking_edges e
WHERE e.kind IN ('sleep', 'io') AND e.waker_tid > 0 AND e.waker_node_id IS NULL AND slice IS NOT NULL;
CREATE TEMP TABLE pf_wk_path AS
WITH RECURSIVE up(id) AS (
	SELECT slice FROM pf_wk
	UNION SELECT s.parent_id FROM pf_ws s JOIN up ON s.id = up.id WHERE s.parent_id IS NOT NULL),
p(id, frame, depth, path, parent_path) AS (
	SELECT s.id, s.frame_id, s.depth, CAST(s.frame_id AS TEXT), NULL FROM pf_ws s JOIN up ON s.id = up.id
	WHERE s.parent_id IS NULL OR s.parent_id NOT IN (SELECT id FROM up)
	UNION ALL
	SELECT s.id, s.frame_id, s.depth, p.path || '/' || s.frame_id, p.path
	FROM pf_ws s JOIN up ON s.id = up.id JOIN p ON s.parent_id = p.id)
SELECT id, frame, depth, path, parent_path FROM p;
CREATE TEMP TABLE pf_wk_node (n INTEGER PRIMARY KEY, path TEXT UNIQUE, parent_path TEXT, frame INTEGER, depth INTEGER);
INSERT INTO pf_wk_node(path, parent_path, frame, depth)
SELECT path, min(parent_path), min(frame), min(depth) FROM pf_wk_path GROUP BY path ORDER BY min(depth), path;
CREATE TEMP TABLE pf_wk_base AS
SELECT max((SELECT coalesce(max(id), 0) FROM nodes), (SELECT coalesce(max(id), 0) FROM frames)) AS v;
INSERT INTO nodes(id, parent_id, frame_id, depth)
SELECT b.v + n.n, (SELECT b.v + q.n FROM pf_wk_node q WHERE q.path = n.parent_path), n.frame, n.depth
FROM pf_wk_node n, pf_wk_base b ORDER BY n.n;
UPDATE blocking_edges SET waker_node_id = (
	SELECT b.v + n.n FROM pf_wk w JOIN pf_wk_path p ON p.id = w.slice JOIN pf_wk_node n ON n.path = p.path, pf_wk_base b
	WHERE w.edge = blocking_edges.id)
WHERE id IN (SELECT edge FROM pf_wk);
DROP TABLE temp.pf_wk_base;
DROP TABLE temp.pf_wk_node;
DROP TABLE temp.pf_wk_path;
DROP TABLE temp.pf_wk;
DROP TABLE temp.pf_ws
