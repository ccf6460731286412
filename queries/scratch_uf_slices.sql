-- scratch_uf_slices: the main thread's slices, by start, for the cause
-- lines of frames that came from a frame timeline.
-- ?1 tid INTEGER
CREATE TEMP TABLE uf_s AS SELECT id, parent_id, frame_id, ts, ts + dur AS e FROM slices WHERE tid = ?1
