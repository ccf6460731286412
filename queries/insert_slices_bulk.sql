-- insert_slices_bulk: the writer's current chunk of slices. Their ids are
-- explicit: slices are numbered in preorder but arrive as they end.
-- (no parameters; rows come from temp.bulk_slices)
INSERT INTO slices SELECT * FROM temp.bulk_slices
