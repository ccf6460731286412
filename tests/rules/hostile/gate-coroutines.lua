-- A gate script made of short coroutines (one reached 5.4e9 instructions).
gate.check(function(m)
  while true do coroutine.wrap(function() for j = 1, 9000 do end end)() end
end)
