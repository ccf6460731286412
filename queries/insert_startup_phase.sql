-- insert_startup_phase: one phase of the app start and the main thread in it.
-- :phase TEXT :ts :dur INTEGER :source TEXT :exact :cpu_ns :blocked_ns :idle_ns
-- :unexplained_ns INTEGER
INSERT INTO startup_phases(phase, ts, dur, source, exact, cpu_ns, blocked_ns, idle_ns, unexplained_ns)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
