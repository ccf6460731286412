-- insert_counter: one value of a counter track.
-- :track TEXT, :ts INTEGER, :value REAL
INSERT INTO counters(track, ts, value) VALUES (?1, ?2, ?3)
