-- join_frame_pid: the frames an input just wrote belong to its process.
-- :pid INTEGER
UPDATE frames SET pid = ?1 WHERE pid IS NULL
