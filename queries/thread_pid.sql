-- thread_pid: a thread's process (NULL where the trace does not say).
-- :tid INTEGER; result: pid INTEGER or NULL
SELECT pid FROM threads WHERE tid = ?1
