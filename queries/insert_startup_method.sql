-- insert_startup_method: a phase's method by self CPU time on the main thread.
-- :phase TEXT :rank :frame_id :self_cpu_ns :self_ns :incl_ns INTEGER
INSERT INTO startup_methods(phase, rank, frame_id, self_cpu_ns, self_ns, incl_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
