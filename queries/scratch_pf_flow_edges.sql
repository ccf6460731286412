-- scratch_pf_flow_edges: the waker arrows of our own --perfetto export
-- ("wakes KIND wait of TID", perfetto.c) become blocking edges again,
-- unless the arrow ends at a marker slice that gave an edge of that kind
-- itself (an export of a Perfetto import: the arrow and the marker are
-- one wait; the marker's edge stands, its waker the arrow's where the
-- marker named none: an ART owner no thread's name resolved, pf_pair.c);
-- so do its waits no one ended (an
-- instant named by the kind, role 2), unless a marker gave the same wait.
-- The frames the export names become stack nodes, all a trace says of the
-- two stacks: the waker's frame, and the waiter's caller with the frame it
-- waited in below it. A root node's id is its frame's; a child's count on
-- from the largest frame id.
CREATE TEMP TABLE pf_wait_node (
	id     INTEGER PRIMARY KEY,
	caller INTEGER NOT NULL,
	frame  INTEGER NOT NULL,
	UNIQUE (caller, frame)
);
INSERT OR IGNORE INTO pf_wait_node(caller, frame)
SELECT f2, f1 FROM pf_flow WHERE role > 0 AND f1 IS NOT NULL AND f2 IS NOT NULL ORDER BY f2, f1;
INSERT INTO nodes(id, parent_id, frame_id, depth)
SELECT f, NULL, f, 0 FROM (
	SELECT f2 AS f FROM pf_flow WHERE role > 0 AND f1 IS NOT NULL AND f2 IS NOT NULL
	UNION SELECT f1 FROM pf_flow WHERE role > 0 AND f1 IS NOT NULL AND f2 IS NULL
	UNION SELECT f1 FROM pf_flow WHERE role = 0 AND f1 IS NOT NULL)
ORDER BY f;
INSERT INTO nodes(id, parent_id, frame_id, depth)
SELECT (SELECT coalesce(max(id), 0) FROM frames) + id, caller, frame, 1 FROM pf_wait_node ORDER BY id;
CREATE TEMP VIEW pf_wait AS
SELECT f.*, CASE WHEN f.f1 IS NULL THEN NULL WHEN f.f2 IS NULL THEN f.f1
                 ELSE (SELECT (SELECT coalesce(max(id), 0) FROM frames) + w.id FROM pf_wait_node w
                       WHERE w.caller = f.f2 AND w.frame = f.f1) END AS node
FROM pf_flow f WHERE f.role > 0;
CREATE TEMP TABLE pf_arrow AS
SELECT e.tid AS waiter, e.ts AS ts, s.tid AS tid, s.ts AS waker_ts, s.f1 AS f1
FROM pf_flow s JOIN pf_flow e ON e.id = s.id AND e.role = 1
WHERE s.role = 0 AND s.name LIKE 'wakes monitor wait of %' AND e.edge = 'monitor'
ORDER BY e.tid, e.ts, s.id;
CREATE INDEX temp.pf_arrow_at ON pf_arrow(waiter, ts);
UPDATE blocking_edges SET (waker_tid, waker_ts, waker_node_id) = (
	SELECT a.tid, a.waker_ts, a.f1 FROM pf_arrow a
	WHERE a.waiter = blocking_edges.waiter_tid AND a.ts = blocking_edges.ts ORDER BY a.rowid LIMIT 1)
WHERE kind = 'monitor' AND waker_tid IS NULL AND waiter_sample_id IS NULL;
DROP TABLE temp.pf_arrow;
INSERT INTO blocking_edges(waiter_tid, kind, ts, dur, waker_tid, waker_ts, waker_node_id, waiter_node_id)
SELECT e.tid, substr(s.name, 7, instr(s.name, ' wait of ') - 7), e.ts, e.dur, s.tid, s.ts, s.f1, e.node
FROM pf_flow s JOIN pf_wait e ON e.id = s.id AND e.role = 1
WHERE s.role = 0 AND s.name LIKE 'wakes % wait of %'
  AND coalesce(e.edge, '') != substr(s.name, 7, instr(s.name, ' wait of ') - 7)
ORDER BY e.tid, e.ts, s.id;
INSERT INTO blocking_edges(waiter_tid, kind, ts, dur, waiter_node_id)
SELECT e.tid, e.name, e.ts, e.dur, e.node
FROM pf_wait e LEFT JOIN blocking_edges b ON b.waiter_tid = e.tid AND b.ts = e.ts AND b.kind = e.name
WHERE e.role = 2 AND e.name IS NOT NULL AND b.id IS NULL
ORDER BY e.tid, e.ts;
DROP VIEW temp.pf_wait;
DROP TABLE temp.pf_wait_node
