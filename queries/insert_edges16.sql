-- insert_edges16: sixteen kernel-waker edges at once (a main thread's sleeps
-- from the scheduler; importers/sched.c): per row :waiter_tid INTEGER,
-- :kind INTEGER (0 sleep, 1 io), :ts :dur INTEGER, :waker_tid :waker_ts
-- INTEGER (-1: NULL, no waker seen).
INSERT INTO blocking_edges(waiter_tid, kind, ts, dur, waker_tid, waker_ts) VALUES
(?1, CASE ?2 WHEN 0 THEN 'sleep' ELSE 'io' END, ?3, ?4, nullif(?5, -1), nullif(?6, -1)),
(?7, CASE ?8 WHEN 0 THEN 'sleep' ELSE 'io' END, ?9, ?10, nullif(?11, -1), nullif(?12, -1)),
(?13, CASE ?14 WHEN 0 THEN 'sleep' ELSE 'io' END, ?15, ?16, nullif(?17, -1), nullif(?18, -1)),
(?19, CASE ?20 WHEN 0 THEN 'sleep' ELSE 'io' END, ?21, ?22, nullif(?23, -1), nullif(?24, -1)),
(?25, CASE ?26 WHEN 0 THEN 'sleep' ELSE 'io' END, ?27, ?28, nullif(?29, -1), nullif(?30, -1)),
(?31, CASE ?32 WHEN 0 THEN 'sleep' ELSE 'io' END, ?33, ?34, nullif(?35, -1), nullif(?36, -1)),
(?37, CASE ?38 WHEN 0 THEN 'sleep' ELSE 'io' END, ?39, ?40, nullif(?41, -1), nullif(?42, -1)),
(?43, CASE ?44 WHEN 0 THEN 'sleep' ELSE 'io' END, ?45, ?46, nullif(?47, -1), nullif(?48, -1)),
(?49, CASE ?50 WHEN 0 THEN 'sleep' ELSE 'io' END, ?51, ?52, nullif(?53, -1), nullif(?54, -1)),
(?55, CASE ?56 WHEN 0 THEN 'sleep' ELSE 'io' END, ?57, ?58, nullif(?59, -1), nullif(?60, -1)),
(?61, CASE ?62 WHEN 0 THEN 'sleep' ELSE 'io' END, ?63, ?64, nullif(?65, -1), nullif(?66, -1)),
(?67, CASE ?68 WHEN 0 THEN 'sleep' ELSE 'io' END, ?69, ?70, nullif(?71, -1), nullif(?72, -1)),
(?73, CASE ?74 WHEN 0 THEN 'sleep' ELSE 'io' END, ?75, ?76, nullif(?77, -1), nullif(?78, -1)),
(?79, CASE ?80 WHEN 0 THEN 'sleep' ELSE 'io' END, ?81, ?82, nullif(?83, -1), nullif(?84, -1)),
(?85, CASE ?86 WHEN 0 THEN 'sleep' ELSE 'io' END, ?87, ?88, nullif(?89, -1), nullif(?90, -1)),
(?91, CASE ?92 WHEN 0 THEN 'sleep' ELSE 'io' END, ?93, ?94, nullif(?95, -1), nullif(?96, -1))
