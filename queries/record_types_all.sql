-- record_types_all: record type names, for reading them back from text.
-- -> type INTEGER, name TEXT
SELECT type, name FROM record_types
