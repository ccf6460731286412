-- string.unpack('z', s) reads s for its NUL and fails without one: no
-- result to charge (found by tests/fuzz/lua_escapes.py).
bt.rule{ id = "unpack", run = function()
  local big = ("a"):rep(1 << 21)
  while true do pcall(function() string.unpack("z", big) end) end
end }
