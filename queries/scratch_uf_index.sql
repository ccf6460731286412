-- scratch_uf_index: uf_s by start and by parent.
CREATE INDEX temp.uf_s_ts ON uf_s(ts);
CREATE INDEX temp.uf_s_parent ON uf_s(parent_id);
