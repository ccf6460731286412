-- scratch_st_drop: the notifies are done with.
DROP TABLE IF EXISTS temp.st_notify;
