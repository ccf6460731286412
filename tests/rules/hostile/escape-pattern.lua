-- A 2 MB pattern against an empty subject: find reads the whole pattern
-- for specials before it looks (found by tests/fuzz/lua_escapes.py).
bt.rule{ id = "pattern", run = function()
  local big = ("a"):rep(1 << 21)
  while true do pcall(function() (""):find(big, 0) end) end
end }
