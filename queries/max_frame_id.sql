-- max_frame_id: the highest frame id so far (an input joining others
-- writes its frames after it).
-- result: id INTEGER
SELECT coalesce(max(id), 0) FROM frames
