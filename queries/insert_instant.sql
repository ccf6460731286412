-- insert_instant: a point in time a Perfetto trace marks (pf_kinds.c), on
-- a thread (tid, track NULL) or on a track of no thread (tid NULL).
-- :tid INTEGER, :track :name TEXT, :ts INTEGER
INSERT INTO instants(tid, track, name, ts) VALUES (?1, ?2, ?3, ?4)
