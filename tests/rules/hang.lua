-- A rule that never ends in a test's time (2G additions): what batch
-- --timeout stops. Give it --set lua.max_instructions=100000000000
-- --set lua.max_cpu_ms=600000.
bt.rule{ id = "hang", run = function()
  local x = 0
  for i = 1, 2000000000 do x = x + i end
end }
