-- scratch_pf_flow_edges: the waker arrows of our own --perfetto export
-- ("wakes KIND wait of TID", perfetto.c) become blocking edges again,
-- unless the arrow ends at a marker slice that gave an edge of that kind
-- itself (an export of a Perfetto import: the arrow and the marker are
-- one wait; the marker's edge stands).
INSERT INTO blocking_edges(waiter_tid, kind, ts, dur, waker_tid, waker_ts)
SELECT e.tid, substr(s.name, 7, instr(s.name, ' wait of ') - 7), e.ts, e.dur, s.tid, s.ts
FROM pf_flow s JOIN pf_flow e ON e.id = s.id AND e.role = 1
WHERE s.role = 0 AND s.name LIKE 'wakes % wait of %'
  AND coalesce(e.edge, '') != substr(s.name, 7, instr(s.name, ' wait of ') - 7)
ORDER BY e.tid, e.ts, s.id
