-- update_thread_offcpu: a thread's off-CPU time by scheduler state inside
-- its top-level slices (engine/recon/offcpu.c). The importer may name its
-- threads later: a thread not yet in the table gets its row here.
-- :tid :runnable_dur :sleeping_dur :io_dur :uninterruptible_dur INTEGER
INSERT INTO threads(tid, runnable_dur, sleeping_dur, io_dur, uninterruptible_dur) VALUES (?1, ?2, ?3, ?4, ?5)
ON CONFLICT (tid) DO UPDATE SET runnable_dur = excluded.runnable_dur, sleeping_dur = excluded.sleeping_dur,
	io_dur = excluded.io_dur, uninterruptible_dur = excluded.uninterruptible_dur
