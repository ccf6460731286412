-- summary_waits: the main thread's waits in the startup window, each with
-- the top methods (wait_chain_methods, by rank) of the last hop of its
-- chain, the thread that held the main thread up; a wait no record names a
-- waker of has one row with NULL rank and name. The caller picks the
-- holder (the first app method, else rank 1) and groups by kind and holder.
-- -> edge_id INTEGER, kind TEXT, dur INTEGER, rank INTEGER, name TEXT
WITH st AS (SELECT tid, ts, coalesce(end_ts, 9223372036854775807) AS end_ts FROM startup ORDER BY ts LIMIT 1),
w AS (SELECT e.id, e.kind, e.dur FROM blocking_edges e, st
	WHERE e.waiter_tid = st.tid AND e.ts >= st.ts AND e.ts < st.end_ts),
last AS (SELECT edge_id, max(hop) AS hop FROM wait_chain WHERE edge_id IN (SELECT id FROM w) GROUP BY edge_id)
SELECT w.id, w.kind, w.dur, m.rank, f.name
FROM w LEFT JOIN last l ON l.edge_id = w.id
	LEFT JOIN wait_chain_methods m ON m.edge_id = l.edge_id AND m.hop = l.hop
	LEFT JOIN frames f ON f.id = m.frame_id
ORDER BY w.id, m.rank
