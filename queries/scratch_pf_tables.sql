-- scratch_pf_tables: where the Perfetto importer spills a trace's events
-- until they can be paired in time order (importers/pf_int.h).
-- pf_ev: k is the thread (tid >= 0) or non-thread track (-index) of the
-- event, NULL while its track is not yet described (uuid says which).
CREATE TEMP TABLE pf_ev (
	seq   INTEGER PRIMARY KEY,
	k     INTEGER,
	uuid  INTEGER,
	ts    INTEGER NOT NULL,
	kind  INTEGER NOT NULL,
	src   INTEGER NOT NULL,
	frame INTEGER,
	v     REAL,
	a     BLOB
);
CREATE INDEX temp.pf_ev_unresolved ON pf_ev(uuid) WHERE k IS NULL;
CREATE TEMP TABLE pf_notify (
	obj INTEGER NOT NULL,
	tid INTEGER NOT NULL,
	ts  INTEGER NOT NULL
);
CREATE TEMP TABLE pf_flow (
	id   INTEGER NOT NULL,
	role INTEGER NOT NULL,
	tid  INTEGER NOT NULL,
	ts   INTEGER NOT NULL,
	dur  INTEGER NOT NULL,
	name TEXT,
	edge TEXT       -- an end at a marker slice: the kind of edge it gave
);
