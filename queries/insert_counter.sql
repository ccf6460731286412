-- insert_counter: one value of a counter track (iOS TimeSeriesModel counters).
-- :track TEXT, :ts INTEGER (ns since the trace start), :value REAL
INSERT INTO counters(track, ts, value) VALUES (?1, ?2, ?3)
