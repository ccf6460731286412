-- Sandbox escapes: each rule tries one under pcall, which must fail with
-- an error naming this file and line, reported as the rule's finding (an
-- uncaught error would end the run); the last rule proves the others ran.
local rule = bt.rule
bt.rule = function(r)
  local run = r.run
  r.run = function(p)
    local ok, msg = pcall(run, p)
    if not ok then bt.finding{ message = tostring(msg), severity = "error" } end
  end
  rule(r)
end
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
bt.rule = rule
-- The limits (time, memory), which pcall cannot catch, are tested one
-- file each in tests/rules/hostile/ (tests/sh/4400-hostile-rules.sh).
