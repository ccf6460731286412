-- Lua's own heap, even with pcall catching each failure.
bt.rule{ id = "heap", run = function()
  local t = {}
  for i = 1, math.maxinteger do t[i] = string.rep("x", 1000) .. i end
end }
