-- set_thread_pid: the process a thread belongs to, as a system trace says.
-- :tid :pid INTEGER
UPDATE threads SET pid = ?2 WHERE tid = ?1
