-- Concatenating a long string is one instruction: the allocator charges
-- the bytes it fills (found by tests/fuzz/lua_escapes.py).
bt.rule{ id = "concat", run = function()
  local big = ("a"):rep(1 << 21)
  while true do coroutine.wrap(function()
    for k = 1, 1e9 do pcall(function() local _ = #(big .. "a") end) end
  end)() end
end }
