-- insert_sample: one decoded stack record.
-- (id is the sample ordinal, 1..n in file order)
-- :id :tid :type :ts :end_ts :cpu_ns :end_cpu_ns :msg_id :node_id :arg
-- :alloc_objects :alloc_bytes :majflt :nvcsw :nivcsw (all INTEGER, end_* and arg may be NULL)
INSERT INTO samples VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
