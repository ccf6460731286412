-- insert_startup: the app start (engine/startup/startup.c).
-- :kind TEXT :tid INTEGER :package TEXT :ts :end_ts :ttid_ns :ttfd_ns INTEGER (NULL: none)
-- :source :end_source TEXT :sample_interval_ns INTEGER (NULL: not sampled)
INSERT INTO startup(kind, tid, package, ts, end_ts, ttid_ns, ttfd_ns, source, end_source, sample_interval_ns)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
