-- trace_span: overall extent of the recorded samples.
-- -> samples INTEGER, threads INTEGER, first_ts INTEGER, last_ts INTEGER
SELECT count(*), count(DISTINCT tid), min(ts), max(coalesce(end_ts, ts)) FROM samples
