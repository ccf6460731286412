-- insert_dispatch: work enqueued on one thread and started on another.
-- :kind TEXT, :source_tid :source_sample_id :source_ts :source_node_id INTEGER,
-- :target_tid :target_ts INTEGER
INSERT INTO dispatches(kind, source_tid, source_sample_id, source_ts, source_node_id,
                       target_tid, target_ts)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
