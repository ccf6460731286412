-- main_threads: the thread(s) marked as the process's main thread.
-- -> tid INTEGER
SELECT tid FROM threads WHERE is_main ORDER BY tid
