-- perfetto_names: frame names by id, and record type names (as negative
-- ids), loaded once so slices need no join.
-- -> id INTEGER, name TEXT
SELECT id, name FROM frames UNION ALL SELECT -type, name FROM record_types
