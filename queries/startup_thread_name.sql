-- startup_thread_name: a thread's name (NULL: none). ?1 tid INTEGER -> name TEXT
SELECT name FROM threads WHERE tid = ?1
