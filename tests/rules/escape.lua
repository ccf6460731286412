-- Sandbox escapes: each rule tries one and must fail with an error
-- finding naming this file and line; the last rule proves the others ran.
bt.rule{ id = "io", run = function() return io.open("/etc/passwd") end }
bt.rule{ id = "os", run = function() os.execute("touch /tmp/btrace-escape") end }
bt.rule{ id = "require", run = function() require("os") end }
bt.rule{ id = "dofile", run = function() dofile("/etc/passwd") end }
bt.rule{ id = "loadfile", run = function() loadfile("/etc/passwd") end }
bt.rule{ id = "debug", run = function() debug.getregistry() end }
bt.rule{ id = "package", run = function() return package.loaded end }
bt.rule{ id = "dump", run = function() return string.dump(print) end }
bt.rule{ id = "bytecode", run = function()
  -- a binary chunk starts with ESC "Lua"; load must refuse it
  local f, msg = load("\27Lua\84\0\25\147\13\10\26\10\4\8\8", "bin", "b")
  assert(f, msg)
end }
bt.rule{ id = "attach", run = function()
  bt.query("ATTACH DATABASE '/tmp/btrace-escape.db' AS x")
end }
bt.rule{ id = "pragma", run = function() bt.query("PRAGMA writable_schema = 1") end }
bt.rule{ id = "write", run = function() bt.query("DELETE FROM samples") end }
bt.rule{ id = "survivor", run = function()
  bt.finding{ message = "still running", severity = "info",
    evidence = { samples = bt.scalar("SELECT count(*) FROM samples") } }
end }
-- The limits (time, memory), which stop the whole file, are tested one
-- file each in tests/rules/hostile/ (tests/sh/4400-hostile-rules.sh).
