-- ui_frames_summary: the display frames' summary in meta, for frames the
-- SQL made (ui_frames_from_timeline.sql); engine/startup/ui_frames.c
-- writes the same of the engine's: the count, the janky ones, the vsyncs
-- missed, the period and the frame times' nearest-rank p50/p90/p99.
-- (no parameters)
WITH s AS (SELECT count(*) AS n, sum(janky) AS janky, sum(missed_vsyncs) AS missed, max(period_ns) AS period,
	bt_percentile(end_ts - ts, 50) AS p50, bt_percentile(end_ts - ts, 90) AS p90,
	bt_percentile(end_ts - ts, 99) AS p99 FROM ui_frames)
INSERT OR REPLACE INTO meta(key, value)
SELECT 'ui_frames', n FROM s WHERE n > 0
UNION ALL SELECT 'ui_frames_janky', janky FROM s WHERE n > 0
UNION ALL SELECT 'ui_frames_missed', missed FROM s WHERE n > 0
UNION ALL SELECT 'ui_frames_period_ns', period FROM s WHERE n > 0
UNION ALL SELECT 'ui_frames_p50_ns', p50 FROM s WHERE n > 0
UNION ALL SELECT 'ui_frames_p90_ns', p90 FROM s WHERE n > 0
UNION ALL SELECT 'ui_frames_p99_ns', p99 FROM s WHERE n > 0
