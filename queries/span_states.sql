-- span_states: a Perfetto trace's span covers its threads' scheduler
-- states too, not only its slices (the feed's first_ts and last_ts): a
-- system trace's states begin before the first slice and end after the last.
INSERT INTO meta(key, value) SELECT 'first_ts', min(ts) FROM thread_states HAVING count(*) > 0
	ON CONFLICT(key) DO UPDATE SET value = min(value, excluded.value);
INSERT INTO meta(key, value) SELECT 'last_ts', max(ts + dur) FROM thread_states HAVING count(*) > 0
	ON CONFLICT(key) DO UPDATE SET value = max(value, excluded.value);
