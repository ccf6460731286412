-- scratch_uf_drop
DROP TABLE IF EXISTS temp.uf_s;
