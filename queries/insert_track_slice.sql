-- insert_track_slice: a slice on a track that is no thread's (iOS
-- TimeSeriesModel slices such as hitch).
-- :track TEXT, :name TEXT, :ts :dur :depth INTEGER (ns)
INSERT INTO track_slices(track, name, ts, dur, depth) VALUES (?1, ?2, ?3, ?4, ?5)
