-- scratch_pf_resolve: events of a track described after them get its key.
-- :uuid :k INTEGER
UPDATE pf_ev SET k = ?2 WHERE k IS NULL AND uuid = ?1
