-- insert_diagnostic: a class of data-quality issue and how often it occurred.
-- :code TEXT, :count INTEGER, :detail TEXT (one example)
INSERT INTO diagnostics(code, count, detail) VALUES (?1, ?2, ?3)
ON CONFLICT(code) DO UPDATE SET count = count + excluded.count
