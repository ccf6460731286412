-- join_thread_pid: the threads an input just wrote belong to its process.
-- :pid INTEGER
UPDATE threads SET pid = ?1 WHERE pid IS NULL
