-- insert_window_method: a method's self time in a thread's first
-- :messages Looper messages (engine/profile's windows).
-- :tid :messages :frame_id :self_ns :self_cpu_ns (NULL: not in the trace)
INSERT INTO window_methods VALUES (?1, ?2, ?3, ?4, ?5)
