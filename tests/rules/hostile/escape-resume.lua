-- The same with create and resume.
bt.rule{ id = "resume", run = function()
  while true do coroutine.resume(coroutine.create(function() for j = 1, 9000 do end end)) end
end }
