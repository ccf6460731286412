-- html_slice_count: how many slices one thread has, so the HTML timeline
-- can say how many it leaves out.
-- :tid INTEGER
-- -> n INTEGER
SELECT count(*) FROM slices WHERE tid = :tid
