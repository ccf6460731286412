-- ui_frames_expected_by_token: a Perfetto frame timeline's expected frames
-- of the app (surface frames), by the token a Choreographer#doFrame N
-- slice names: when the frame should start and its deadline (its end).
-- -> token, ts, dur INTEGER
SELECT token, ts, dur FROM display_frames WHERE kind = 'expected_surface' AND token IS NOT NULL AND dur > 0
ORDER BY token, ts
