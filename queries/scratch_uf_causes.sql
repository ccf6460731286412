-- scratch_uf_causes: the cause line of each janky frame that came
-- from the frame timeline: its jank type, then the main thread's slices
-- (temp uf_s) by their self time inside the frame (those that began in it,
-- at least 1 ms, the three largest).
UPDATE ui_frames SET cause = (
	SELECT coalesce((SELECT jank FROM display_frames d WHERE d.kind = 'actual_surface'
			 AND d.token = ui_frames.vsync AND d.ts = ui_frames.ts LIMIT 1), 'janky') || ': ' ||
	       coalesce((SELECT group_concat(name || printf(' %.1f ms', ns / 1e6), ', ') FROM (
			SELECT f.name AS name, sum(min(s.e, ui_frames.end_ts) - s.ts -
				coalesce((SELECT sum(min(c.e, ui_frames.end_ts) - c.ts) FROM uf_s c
					  WHERE c.parent_id = s.id AND c.ts < ui_frames.end_ts), 0)) AS ns
			FROM uf_s s JOIN frames f ON f.id = s.frame_id
			WHERE s.ts >= ui_frames.ts AND s.ts < ui_frames.end_ts
			GROUP BY f.id HAVING ns >= 1000000 ORDER BY ns DESC, f.name LIMIT 3)),
		'no method or wait of 1 ms or more'))
WHERE janky AND cause IS NULL
