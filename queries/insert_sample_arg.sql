-- insert_sample_arg: the argument of a kTraceArg sample.
-- :sample_id INTEGER, :arg INTEGER
INSERT INTO sample_args(sample_id, arg) VALUES (?1, ?2)
