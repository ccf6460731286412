-- sample_types: how many records of each type were imported.
-- -> type INTEGER, name TEXT, samples INTEGER
SELECT s.type AS type, coalesce(r.name, 'type ' || s.type) AS name, count(*) AS samples
FROM samples s LEFT JOIN record_types r ON r.type = s.type
GROUP BY s.type ORDER BY s.type
