-- scratch_pf_drop: the spilled events are done with.
DROP TABLE IF EXISTS temp.pf_ev;
DROP TABLE IF EXISTS temp.pf_notify;
DROP TABLE IF EXISTS temp.pf_flow;
