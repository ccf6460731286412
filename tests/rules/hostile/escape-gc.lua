-- A full collection of a large heap per instruction.
bt.rule{ id = "gc", run = function()
  local t = {} for i = 1, 2000000 do t[i] = {} end
  while true do collectgarbage() end
end }
