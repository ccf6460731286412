-- scratch_pf_insert_notify: a waker marker slice began: an Object#notify
-- (kind 'wait': obj the object's hash) or an Unsafe#unpark (kind 'park':
-- obj the hash of the thread it unparks).
-- :kind TEXT, :obj :tid :ts INTEGER
INSERT INTO pf_notify(kind, obj, tid, ts) VALUES (?1, ?2, ?3, ?4)
