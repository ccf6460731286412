-- perfetto_threads: the threads that get a track, main thread first.
-- -> tid INTEGER, name TEXT (NULL: the trace names it not), main INTEGER,
--    pid INTEGER (NULL: the trace does not say)
SELECT tid, name, is_main, pid FROM threads ORDER BY is_main DESC, tid
