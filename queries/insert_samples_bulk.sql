-- insert_samples_bulk: append the writer's current chunk of samples.
-- Ids come out NULL, so SQLite appends at max(rowid) + 1. (A column list
-- without id would cost a register copy per column instead.)
-- (no parameters; rows come from temp.bulk_samples)
INSERT INTO samples SELECT * FROM temp.bulk_samples
