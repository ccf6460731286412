-- scratch_pf_insert_event: one spilled event.
-- :seq :k :uuid :ts :kind :src :frame INTEGER (k, frame may be NULL), :v REAL, :a BLOB
INSERT INTO pf_ev(seq, k, uuid, ts, kind, src, frame, v, a) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
