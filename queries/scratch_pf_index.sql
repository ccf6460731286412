-- scratch_pf_index: once every event is in, order them per thread by time
-- (the rowid, file order, breaks ties), and notifies by object.
CREATE INDEX temp.pf_ev_order ON pf_ev(k, ts);
CREATE INDEX temp.pf_notify_obj ON pf_notify(obj, ts);
