-- startup_package_cut: the first method (by id) whose name holds a dump's
-- cut process name and a dot: ART keeps the last 15 characters of a
-- thread name longer than that ("om.example.feed" of "com.example.feed"),
-- and the app's own methods say where its package begins.
-- ?1 name TEXT -> name TEXT
SELECT name FROM frames WHERE instr(name, ?1 || '.') > 0 ORDER BY id LIMIT 1
