-- scratch_st_insert_notify: an Object#notify(obj:...) slice began.
-- :obj :tid :ts INTEGER
INSERT INTO st_notify(obj, tid, ts) VALUES (?1, ?2, ?3)
