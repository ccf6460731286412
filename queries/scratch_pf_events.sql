-- scratch_pf_events: the events per thread or track, in time order (file
-- order among equal times).
-- -> k, ts, kind, src, frame INTEGER, v REAL, a BLOB
SELECT k, ts, kind, src, frame, v, a FROM pf_ev WHERE k IS NOT NULL ORDER BY k, ts, seq
