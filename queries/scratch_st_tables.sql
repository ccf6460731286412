-- scratch_st_tables: what the systrace importer keeps aside in the trace
-- database's temp schema while it replays the threads (importers/systrace/):
-- the Object#notify markers that may have ended an Object#wait.
CREATE TEMP TABLE st_notify (
	obj INTEGER NOT NULL,
	tid INTEGER NOT NULL,
	ts  INTEGER NOT NULL
);
CREATE INDEX temp.st_notify_obj ON st_notify(obj, ts);
