-- insert_samples_bulk: append the writer's current chunk of samples.
-- (no parameters; rows come from temp.bulk_samples)
INSERT INTO samples SELECT * FROM temp.bulk_samples
