-- insert_frame: one distinct symbol with its parsed parts.
-- :id INTEGER, :address INTEGER, :name TEXT, :return_type :class :method :params TEXT or NULL
INSERT INTO frames(id, address, name, return_type, class, method, params)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
