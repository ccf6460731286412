-- html_edges: the waits of one thread, longest first, for the HTML
-- timeline; those with a known waker get an arrow from it.
-- :tid INTEGER
-- -> ts, dur (INTEGER), kind TEXT, waker_tid, waker_ts (INTEGER or NULL)
SELECT ts, dur, kind, waker_tid, waker_ts FROM blocking_edges
WHERE waiter_tid = :tid
ORDER BY dur DESC, ts, id
