-- startup_running: the scheduler's running time of thread ?1 in [?2, ?3), where
-- its states cover the whole interval (else no row). ?1 tid, ?2 ?3 INTEGER ->
-- running INTEGER
SELECT CAST(total(CASE WHEN state = 'running' THEN min(ts + dur, ?3) - max(ts, ?2) END) AS INTEGER)
FROM thread_states WHERE tid = ?1 AND ts < ?3 AND ts + dur > ?2
HAVING min(ts) <= ?2 AND max(ts + dur) >= ?3
