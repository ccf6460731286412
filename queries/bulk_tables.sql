-- bulk_tables: the virtual tables the writer thread reads a chunk of rows
-- from (module bt_bulk in engine/db_bulk.c): the columns of samples and
-- nodes (NULL ids that SQLite replaces), slices (explicit ids), and
-- scheduler states and sleep edges.
CREATE VIRTUAL TABLE temp.bulk_samples USING bt_bulk(samples);
CREATE VIRTUAL TABLE temp.bulk_nodes USING bt_bulk(nodes);
CREATE VIRTUAL TABLE temp.bulk_slices USING bt_bulk(slices);
CREATE VIRTUAL TABLE temp.bulk_states USING bt_bulk(states);
CREATE VIRTUAL TABLE temp.bulk_edges USING bt_bulk(edges);
