-- insert_binder: a "binder transact[...]" slice, parsed.
-- :slice_id :tid :ts :dur INTEGER, :interface TEXT, :method TEXT or NULL, :code INTEGER or NULL
INSERT INTO binder_transactions(slice_id, tid, ts, dur, interface, method, code)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
