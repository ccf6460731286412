-- scratch_pf_drop: the notifies, unparks and flows are done with.
DROP TABLE IF EXISTS temp.pf_notify;
DROP TABLE IF EXISTS temp.pf_flow;
