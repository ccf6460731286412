-- A sort without comparator: n log n comparisons in one instruction.
bt.rule{ id = "sort", run = function()
  local t = {} for i = 1, 1000000 do t[i] = i end
  while true do table.sort(t) end
end }
