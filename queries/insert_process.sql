-- insert_process: one process of the capture.
-- :pid INTEGER, :name :source :format TEXT or NULL, :main_tid :is_lead :first_ts :last_ts
-- :samples :threads INTEGER
INSERT INTO processes(pid, name, source, format, main_tid, is_lead, first_ts, last_ts, samples, threads)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
