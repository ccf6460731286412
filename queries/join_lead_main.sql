-- join_lead_main: threads.is_main marks the lead process's main thread only.
-- :tid INTEGER
UPDATE threads SET is_main = (tid = ?1) WHERE is_main OR tid = ?1
