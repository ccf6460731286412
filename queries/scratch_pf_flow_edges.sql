-- scratch_pf_flow_edges: the waker arrows of our own --perfetto export
-- ("wakes KIND wait of TID", perfetto.c) become blocking edges again,
-- unless the arrow ends at a marker slice that gave an edge of that kind
-- itself (an export of a Perfetto import: the arrow and the marker are
-- one wait; the marker's edge stands). The frames the export names become
-- stack nodes, all a trace says of the two stacks: the waker's frame, and
-- the waiter's caller with the frame it waited in below it. A root node's
-- id is its frame's; a child's count on from the largest frame id.
CREATE TEMP TABLE pf_wait_node (
	id     INTEGER PRIMARY KEY,
	caller INTEGER NOT NULL,
	frame  INTEGER NOT NULL,
	UNIQUE (caller, frame)
);
INSERT OR IGNORE INTO pf_wait_node(caller, frame)
SELECT f2, f1 FROM pf_flow WHERE role = 1 AND f1 IS NOT NULL AND f2 IS NOT NULL ORDER BY f2, f1;
INSERT INTO nodes(id, parent_id, frame_id, depth)
SELECT f, NULL, f, 0 FROM (
	SELECT f2 AS f FROM pf_flow WHERE role = 1 AND f1 IS NOT NULL AND f2 IS NOT NULL
	UNION SELECT f1 FROM pf_flow WHERE role = 1 AND f1 IS NOT NULL AND f2 IS NULL
	UNION SELECT f1 FROM pf_flow WHERE role = 0 AND f1 IS NOT NULL)
ORDER BY f;
INSERT INTO nodes(id, parent_id, frame_id, depth)
SELECT (SELECT coalesce(max(id), 0) FROM frames) + id, caller, frame, 1 FROM pf_wait_node ORDER BY id;
INSERT INTO blocking_edges(waiter_tid, kind, ts, dur, waker_tid, waker_ts, waker_node_id, waiter_node_id)
SELECT e.tid, substr(s.name, 7, instr(s.name, ' wait of ') - 7), e.ts, e.dur, s.tid, s.ts, s.f1,
       CASE WHEN e.f1 IS NULL THEN NULL WHEN e.f2 IS NULL THEN e.f1
            ELSE (SELECT (SELECT coalesce(max(id), 0) FROM frames) + w.id FROM pf_wait_node w
                  WHERE w.caller = e.f2 AND w.frame = e.f1) END
FROM pf_flow s JOIN pf_flow e ON e.id = s.id AND e.role = 1
WHERE s.role = 0 AND s.name LIKE 'wakes % wait of %'
  AND coalesce(e.edge, '') != substr(s.name, 7, instr(s.name, ' wait of ') - 7)
ORDER BY e.tid, e.ts, s.id;
DROP TABLE temp.pf_wait_node
