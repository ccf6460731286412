-- insert_slice: one reconstructed frame execution (ids dense, in order).
-- :id ... :gap_cpu_dur, the 22 columns of slices in table order
INSERT INTO slices VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,
                           ?16, ?17, ?18, ?19, ?20, ?21, ?22)
