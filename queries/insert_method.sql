-- insert_method: one thread's values of one method (engine/profile_store.c).
-- :tid :frame_id then (self, incl) of ns, cpu, blocked, bytes, objects, majflt, nvcsw, nivcsw,
-- idle ns; the states' split is offcpu.c's (update_method_offcpu.sql)
INSERT INTO methods VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
	?17, ?18, ?19, ?20, NULL, NULL, NULL, NULL)
