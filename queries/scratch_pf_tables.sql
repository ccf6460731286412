-- scratch_pf_tables: what the Perfetto importer keeps aside in the trace
-- database's temp schema while it pairs slices (importers/pf_int.h):
-- monitor waits with the method their owner locked in and the ends of that
-- method's slices (releases), flow ends and waits no one ended. (The
-- notifies and unparks that may end waits and parks are kept in memory
-- for engine/recon/link.c's bt_link_waits.)
CREATE TEMP TABLE pf_monitor_at (
	tid   INTEGER NOT NULL,   -- the waiter's
	ts    INTEGER NOT NULL,   -- the wait's begin
	frame INTEGER NOT NULL    -- the method its owner locked in
);
CREATE INDEX temp.pf_monitor_at_wait ON pf_monitor_at(tid, ts);
CREATE TEMP TABLE pf_held (
	tid    INTEGER NOT NULL,
	frame  INTEGER NOT NULL,
	end_ts INTEGER NOT NULL
);
CREATE INDEX temp.pf_held_end ON pf_held(tid, frame, end_ts);
CREATE TEMP TABLE pf_flow (
	id   INTEGER NOT NULL,
	role INTEGER NOT NULL,
	tid  INTEGER NOT NULL,
	ts   INTEGER NOT NULL,
	dur  INTEGER NOT NULL,
	name TEXT,
	edge TEXT,      -- an end at a marker slice: the kind of edge it gave
	f1   INTEGER,   -- our export's frames (ids of frames): a begin's, the waker's;
	f2   INTEGER    -- an end's or a lone wait's (role 2), the frame the wait was in (f1) and its caller (f2)
);
