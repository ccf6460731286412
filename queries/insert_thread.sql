-- insert_thread: a thread seen in samples or named by the dump (a thread
-- of a process imported before, pid set, is left as it is).
-- :tid INTEGER, :name TEXT or NULL, :is_main INTEGER
INSERT INTO threads(tid, name, is_main) VALUES (?1, ?2, ?3)
ON CONFLICT(tid) DO UPDATE SET name = coalesce(excluded.name, name),
	is_main = max(is_main, excluded.is_main)
	WHERE pid IS NULL
