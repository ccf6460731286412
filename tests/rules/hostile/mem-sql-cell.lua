-- A huge cell: SQLite holds it while Lua copies it; both count.
bt.rule{ id = "cell", run = function()
  bt.scalar("SELECT printf('%.*c', 120000000, 'x')")
end }
