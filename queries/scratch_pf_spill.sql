-- scratch_pf_spill: the Perfetto importer's spill file (its own connection,
-- a file in $TMPDIR, so a multi-GB trace's events do not stay in memory)
-- holds every event until all are read and they can be paired in time
-- order. k is the thread (tid > 0) or non-thread track (-index - 1) of the
-- event, NULL while its track is not yet described (uuid says which).
CREATE TABLE pf_ev (
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
CREATE INDEX pf_ev_unresolved ON pf_ev(uuid) WHERE k IS NULL;
