-- update_thread_times: a thread's breakdown of its span into running,
-- blocked, idle and unexplained time (engine/profile/profile_store.c).
-- A thread the records name no other way gets its row here.
-- :tid :wall_dur :cpu_dur :blocked_dur :idle_dur :unexplained_dur INTEGER
INSERT INTO threads(tid, wall_dur, cpu_dur, blocked_dur, idle_dur, unexplained_dur)
VALUES (?1, ?2, ?3, ?4, ?5, ?6)
ON CONFLICT (tid) DO UPDATE SET wall_dur = excluded.wall_dur, cpu_dur = excluded.cpu_dur,
	blocked_dur = excluded.blocked_dur, idle_dur = excluded.idle_dur,
	unexplained_dur = excluded.unexplained_dur
