-- pf_kinds_counts: what a Perfetto import put outside the thread tables,
-- for the text of a trace with no thread slices (importers/perfetto/pf_kinds.c).
-- -> track_slices, tracks, counter_values, counters, instants INTEGER
SELECT (SELECT count(*) FROM track_slices), (SELECT count(DISTINCT track) FROM track_slices),
       (SELECT count(*) FROM counters), (SELECT count(DISTINCT track) FROM counters),
       (SELECT count(*) FROM instants)
