-- scratch_pf_insert_flow: a flow begins (role 0) or ends (role 1) at an event.
-- :id :role :tid :ts :dur INTEGER, :name TEXT, :edge TEXT (the kind of
-- edge the slice ending it gave as a marker, or NULL)
INSERT INTO pf_flow(id, role, tid, ts, dur, name, edge) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
