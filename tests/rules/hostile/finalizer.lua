-- Lua runs __gc finalizers with hooks off, out of reach of the time limit:
-- the sandbox refuses them (an ordinary error, which pcall catches here
-- so that the other rules run; uncaught, it ends the run).
bt.rule{ id = "gc", run = function()
  local ok, msg = pcall(function() setmetatable({}, { __gc = function() while true do end end }) end)
  bt.finding{ message = tostring(msg), severity = ok and "info" or "error" }
end }
bt.rule{ id = "gc-later", run = function()
  -- __gc added after setmetatable: Lua never marks the object, never runs it
  local mt = {}
  local t = setmetatable({}, mt)
  mt.__gc = function() while true do end end
  t = nil
  collectgarbage()
  bt.finding{ message = "no finalizer ran", severity = "info" }
end }
bt.rule{ id = "gc-close", run = function()
  -- left for the state's close: nothing may run there either
  LEAK = setmetatable({}, { __index = {} })
  bt.finding{ message = "plain metatables still work", severity = "info" }
end }
