-- link_open_waits: the Object#wait and Unsafe#park edges a trace's marker
-- slices gave and no waker ended yet, for bt_link_waits (engine/recon/link.c)
-- to link to the notify or unpark that did: the object (a wait's) or the
-- parked thread (a park's) is the lock_id; waits without one cannot be linked.
-- Result: id INTEGER, waiter_tid INTEGER, kind TEXT, lock_id INTEGER, ts INTEGER, dur INTEGER
SELECT id, waiter_tid, kind, lock_id, ts, dur FROM blocking_edges
WHERE kind IN ('wait', 'park') AND waker_tid IS NULL AND waiter_sample_id IS NULL AND lock_id IS NOT NULL
ORDER BY id
