-- report_startup_blocking: the main thread's blocked time in the whole startup, by kind.
-- -> kind TEXT, count INTEGER, dur INTEGER
SELECT kind, count, dur FROM startup_blocking WHERE phase = 'startup' ORDER BY dur DESC, kind
