-- insert_track_slice: a slice on a track that is no thread's.
-- :track :name TEXT, :ts :dur :depth INTEGER
INSERT INTO track_slices(track, name, ts, dur, depth) VALUES (?1, ?2, ?3, ?4, ?5)
