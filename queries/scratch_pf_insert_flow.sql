-- scratch_pf_insert_flow: a flow begins (role 0) or ends (role 1) at an event,
-- or (role 2, id 0) a wait stands alone, its waker unknown.
-- :id :role :tid :ts :dur INTEGER, :name TEXT, :edge TEXT (the kind of
-- edge the slice ending it gave as a marker, or NULL), :f1 :f2 INTEGER
-- (frame ids, 0 for none: the waker's frame at a begin; the frame the wait
-- was in and its caller at an end or a lone wait)
INSERT INTO pf_flow(id, role, tid, ts, dur, name, edge, f1, f2)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, nullif(?8, 0), nullif(?9, 0))
