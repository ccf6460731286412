-- Transactions and pragma tables are refused like ATTACH and PRAGMA:
-- ordinary errors, which pcall catches, so every rule runs.
for _, sql in ipairs({ "BEGIN", "SAVEPOINT s", "RELEASE s", "COMMIT", "ROLLBACK",
    "SELECT * FROM pragma_database_list", "SELECT * FROM pragma_compile_options",
    "SELECT * FROM pragma_function_list", "SELECT count(*) FROM pragma_table_list" }) do
  bt.rule{ id = sql, run = function() local ok, msg = pcall(function() bt.query(sql) end)
    bt.finding{ message = tostring(msg), severity = ok and "info" or "error" } end }
end
bt.rule{ id = "schema", run = function()
  local n = bt.scalar("SELECT count(*) FROM pragma_table_info('samples')")
  bt.finding{ message = "schema pragma tables still work: " .. tostring(n > 0), severity = "info" }
end }
