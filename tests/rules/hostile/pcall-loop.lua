-- A stop cannot be caught: pcall in the rule does not swallow it.
bt.rule{ id = "pcall-loop", run = function()
  while true do pcall(function() while true do end end) end
end }
bt.rule{ id = "after", run = function() bt.finding{ message = "ran after a stop" } end }
