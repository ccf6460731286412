-- An argument error named its function by searching every loaded library
-- and _G, uncharged: with 200k globals each error read them all (the
-- suite's generator found the slow path).
for i = 1, 200000 do _G["g" .. i] = i end
bt.rule{ id = "argerror", run = function()
  while true do pcall(function() ("x"):rep(1e308) end) end
end }
