-- wait_chain_edges: the waits with a known waker, for the wait chains
-- (engine/recon/chain.c): the main thread's are the chains' roots, the
-- others (formats with lock ids) name who released a hop's own blocking.
-- -> id, waiter_tid, waiter_sample_id, ts, dur, waker_tid INTEGER
SELECT id, waiter_tid, waiter_sample_id, ts, dur, waker_tid
FROM blocking_edges WHERE waker_tid IS NOT NULL
ORDER BY ts, id
