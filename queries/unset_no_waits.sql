-- unset_no_waits: a Perfetto trace's waits are linked (pf_link) after its
-- slices were stored and set_unknowns ran: where they linked some, the
-- trace can say when its threads waited after all.
DELETE FROM meta WHERE key = 'no_waits'
	AND (EXISTS (SELECT 1 FROM blocking_edges) OR EXISTS (SELECT 1 FROM thread_states))
