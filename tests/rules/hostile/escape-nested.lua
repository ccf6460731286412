-- A stop inside a nested coroutine, caught by pcall in the outer one whose
-- hook still fired every 100 instructions, always inside the pcall.
bt.rule{ id = "nested", run = function()
  local s = ("a"):rep(1 << 24)
  local t = ("a"):rep((1 << 24) - 1) .. "b"
  while true do coroutine.wrap(function()
    for k = 1, 1e9 do
      pcall(function() coroutine.wrap(function() local _ = s == t end)() end)
    end
  end)() end
end }
