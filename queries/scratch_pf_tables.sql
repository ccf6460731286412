-- scratch_pf_tables: what the Perfetto importer keeps aside in the trace
-- database's temp schema while it pairs slices (importers/pf_int.h): the
-- notifies and unparks that may end waits and parks, flow ends and waits
-- no one ended.
CREATE TEMP TABLE pf_notify (
	kind TEXT NOT NULL,      -- the kind of wait it may end: 'wait' (a notify), 'park' (an unpark)
	obj  INTEGER NOT NULL,
	tid  INTEGER NOT NULL,
	ts   INTEGER NOT NULL
);
CREATE INDEX temp.pf_notify_obj ON pf_notify(kind, obj, ts);
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
