-- unlinked_waits: how many waits have no waker (systrace: neither a
-- wakeup, an owner nor a notify ended them).
-- -> n INTEGER
SELECT count(*) FROM blocking_edges WHERE waker_tid IS NULL
