-- join_save_meta: an input's meta, kept as its process's (the capture's
-- own keys stay in meta: the tool, the schema and a cut-short input's note).
-- :pid INTEGER
INSERT OR REPLACE INTO process_meta(pid, key, value)
SELECT ?1, key, value FROM meta
WHERE key NOT IN ('tool', 'schema_version', 'partial', 'partial_reason')
