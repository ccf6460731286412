-- summary_has_startup: whether the trace has a start (its summary then has
-- methods and waits, even none).
-- -> n INTEGER
SELECT count(*) FROM startup
