-- startup_draw_slices: the RenderThread's draws of the frames (DrawFrame N,
-- API 32's DrawFrames N) on threads other than ?1, for the startup model's
-- display ends (engine/startup/display.h). ?1 tid INTEGER
-- -> tid, frame_id, ts, dur (INTEGER)
SELECT s.tid, s.frame_id, s.ts, s.dur
FROM slices s JOIN frames f ON f.id = s.frame_id
WHERE s.tid <> ?1 AND f.name GLOB 'DrawFrame*'
ORDER BY s.ts, s.id
