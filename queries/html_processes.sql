-- html_processes: the processes of a capture, the lead first: the
-- timeline groups their threads' lanes in this order.
-- -> pid INTEGER, name TEXT or NULL, lead INTEGER
SELECT pid, name, is_lead FROM processes ORDER BY is_lead DESC, pid
