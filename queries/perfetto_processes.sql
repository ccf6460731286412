-- perfetto_processes: the processes of a capture besides the lead, each
-- a process track of its own in the Perfetto export.
-- -> pid INTEGER, name TEXT or NULL
SELECT pid, name FROM processes WHERE NOT is_lead ORDER BY pid
