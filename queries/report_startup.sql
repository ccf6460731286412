-- report_startup: the app start the reports open with (the first one).
-- -> kind TEXT, tid INTEGER, package TEXT, ts INTEGER, end_ts INTEGER, ttid_ns INTEGER,
--    ttfd_ns INTEGER, source TEXT, end_source TEXT
SELECT kind, tid, package, ts, end_ts, ttid_ns, ttfd_ns, source, end_source
FROM startup ORDER BY ts LIMIT 1
