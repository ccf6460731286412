-- ui_frames_from_timeline: a trace with a frame timeline but no doFrame
-- slices (an app traced with its own markers only): the process's actual
-- surface frames are its frames, each with its expected frame (by token:
-- start and deadline), janky as the timeline classifies it (a jank type
-- other than None), the vsyncs missed past its deadline by the median
-- expected frame (the display's period).
-- ?1 tid ?2 pid INTEGER
INSERT INTO ui_frames(id, tid, ts, vsync, dur, end_ts, period_ns, expected_ts, deadline_ts, janky,
	missed_vsyncs, draw_ts, draw_dur, cause)
WITH x AS (SELECT token, min(ts) AS ts, max(dur) AS dur FROM display_frames
	   WHERE kind = 'expected_surface' AND pid = ?2 AND token IS NOT NULL AND dur > 0 GROUP BY token),
p AS (SELECT dur AS ns FROM x WHERE dur BETWEEN 2000000 AND 100000000 ORDER BY dur
      LIMIT 1 OFFSET (SELECT count(*) / 2 FROM x WHERE dur BETWEEN 2000000 AND 100000000)),
a AS (SELECT f.ts, f.dur, f.token, f.jank, x.ts AS xts, x.ts + x.dur AS xend FROM display_frames f
      JOIN x ON x.token = f.token WHERE f.kind = 'actual_surface' AND f.pid = ?2 AND f.dur >= 0)
SELECT row_number() OVER (ORDER BY a.ts, a.token), ?1, a.ts, a.token, a.dur, a.ts + a.dur, p.ns, a.xts, a.xend,
	coalesce(a.jank, 'None') != 'None',
	CASE WHEN a.ts + a.dur > a.xend THEN (a.ts + a.dur - a.xend + p.ns - 1) / p.ns ELSE 0 END, NULL, NULL, NULL
FROM a, p
