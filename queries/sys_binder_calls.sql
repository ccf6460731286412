-- sys_binder_calls: a system trace's binder calls (--process all), to
-- follow a capture's calls with (engine/recon/join.c).
-- -> client_tid, ts, dur, oneway, server_pid, server_tid, server_first_ts, server_last_ts,
--    blocked_dur INTEGER (NULL where unknown), why TEXT
SELECT client_tid, ts, dur, oneway, server_pid, server_tid, server_first_ts, server_last_ts, blocked_dur, why
FROM binder_calls ORDER BY ts, id
