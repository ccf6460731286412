-- process_threads: how many threads a process has.
-- :pid INTEGER; result: n INTEGER
SELECT count(*) FROM threads WHERE pid = ?1
