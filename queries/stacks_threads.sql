-- stacks_threads: the recorded threads and their names, main thread first.
-- -> tid INTEGER, name TEXT (NULL when the dump names no thread), is_main INTEGER
SELECT tid, name, is_main FROM threads ORDER BY is_main DESC, tid
