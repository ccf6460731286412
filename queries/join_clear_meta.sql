-- join_clear_meta: meta made ready for the next input (join_save_meta
-- kept the last one's).
DELETE FROM meta WHERE key NOT IN ('tool', 'schema_version', 'partial', 'partial_reason')
