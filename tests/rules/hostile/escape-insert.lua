-- Inserting at the front moves every element.
bt.rule{ id = "insert", run = function()
  local t = {} for i = 1, 1000000 do t[i] = i end
  while true do table.insert(t, 1, 0); table.remove(t, 1) end
end }
