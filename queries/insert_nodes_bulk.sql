-- insert_nodes_bulk: append the writer's current chunk of stack nodes,
-- ids NULL as in insert_samples_bulk.
-- (no parameters; rows come from temp.bulk_nodes)
INSERT INTO nodes SELECT * FROM temp.bulk_nodes
