-- thread_name: a thread's name (a process is named after its main thread).
-- :tid INTEGER; result: name TEXT or NULL
SELECT name FROM threads WHERE tid = ?1
