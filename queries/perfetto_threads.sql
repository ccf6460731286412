-- perfetto_threads: the threads that get a track, main thread first.
-- -> tid INTEGER, name TEXT, main INTEGER
SELECT tid, coalesce(name, 'Thread-' || tid), is_main FROM threads ORDER BY is_main DESC, tid
