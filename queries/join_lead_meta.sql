-- join_lead_meta: meta describes the lead process.
-- :pid INTEGER
INSERT OR REPLACE INTO meta(key, value) SELECT key, value FROM process_meta WHERE pid = ?1
