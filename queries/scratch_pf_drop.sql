-- scratch_pf_drop: the notifies and flows are done with.
DROP TABLE IF EXISTS temp.pf_notify;
DROP TABLE IF EXISTS temp.pf_flow;
