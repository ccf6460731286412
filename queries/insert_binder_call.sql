-- insert_binder_call: a client's binder call and the server thread that
-- served it in another process of the capture (NULL: none was seen).
-- :client_tid :client_sample_id (NULL: a system trace's) :ts :dur :oneway INTEGER,
-- :server_pid :server_tid :server_first_ts :server_last_ts :server_samples :blocked_dur INTEGER or NULL,
-- :why TEXT or NULL
INSERT INTO binder_calls(client_tid, client_sample_id, ts, dur, oneway, server_pid, server_tid, server_first_ts,
                         server_last_ts, server_samples, blocked_dur, why)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
