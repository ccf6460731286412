-- html_messages: one thread's Looper messages in time order, for the HTML
-- timeline.
-- :tid INTEGER
-- -> ts, dur, cpu_dur, msg_id (all INTEGER)
SELECT ts, dur, cpu_dur, msg_id FROM messages WHERE tid = :tid ORDER BY ts, msg_id
