-- scratch_pf_index: once every event is spilled, order them per thread by
-- time (the rowid, file order, breaks ties).
CREATE INDEX pf_ev_order ON pf_ev(k, ts);
