-- insert_caller: a method's self values under one caller.
-- :tid :frame_id :caller_frame_id then self ns, cpu, blocked, bytes, objects, majflt, nvcsw, nivcsw,
-- idle ns
INSERT INTO callers VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
