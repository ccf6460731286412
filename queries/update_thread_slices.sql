-- update_thread_slices: how many slices a thread has, counted as they are
-- made (engine/profile/profile_store.c), so that a run that does not keep
-- them (a scratch analysis) need not walk them again to count them.
-- :tid :slices INTEGER
INSERT INTO threads(tid, slices) VALUES (?1, ?2)
ON CONFLICT (tid) DO UPDATE SET slices = excluded.slices
