-- frames_all: every frame, for reconstruction.
-- -> id INTEGER, name TEXT
SELECT id, name FROM frames ORDER BY id
