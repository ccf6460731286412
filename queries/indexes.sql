-- indexes: built once after the bulk load, which is faster than keeping
-- them up to date row by row.
CREATE INDEX samples_by_thread ON samples(tid, ts);
CREATE INDEX nodes_by_parent ON nodes(parent_id);
