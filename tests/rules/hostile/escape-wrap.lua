-- Coroutines shorter than the hook's period: each began a fresh count.
bt.rule{ id = "wrap", run = function()
  while true do coroutine.wrap(function() for j = 1, 9000 do end end)() end
end }
