-- The same with equality.
bt.rule{ id = "equal", run = function()
  local s = ("a"):rep(32 << 20)
  local t = ("a"):rep(32 << 20)
  local n = 0
  while true do if s == t then n = n + 1 end end
end }
