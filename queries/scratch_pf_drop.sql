-- scratch_pf_drop: the releases and flows are done with.
DROP TABLE IF EXISTS temp.pf_monitor_at;
DROP TABLE IF EXISTS temp.pf_held;
DROP TABLE IF EXISTS temp.pf_flow;
