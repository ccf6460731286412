-- link_set_waker: the thread whose notify or unpark ended a wait, and when
-- it began (bt_link_waits).
-- :id :waker_tid :waker_ts INTEGER
UPDATE blocking_edges SET waker_tid = ?2, waker_ts = ?3 WHERE id = ?1
