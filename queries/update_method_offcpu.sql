-- update_method_offcpu: a method's self time of one thread by scheduler
-- state (engine/recon/offcpu.c), where the thread's states cover some of it.
-- :tid :frame_id :runnable_ns :sleeping_ns :io_ns :uninterruptible_ns INTEGER
UPDATE methods SET self_runnable_ns = ?3, self_sleeping_ns = ?4, self_io_ns = ?5, self_uninterruptible_ns = ?6
WHERE tid = ?1 AND frame_id = ?2
