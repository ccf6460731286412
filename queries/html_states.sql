-- html_states: one thread's scheduler states in time order, for the HTML
-- timeline's state band (uninterruptible I/O apart, as the threads table
-- counts it).
-- :tid INTEGER
-- -> ts, dur INTEGER, state TEXT
SELECT ts, dur, CASE WHEN state = 'uninterruptible' AND io_wait = 1 THEN 'uninterruptible (I/O)' ELSE state END
FROM thread_states WHERE tid = :tid
ORDER BY ts
