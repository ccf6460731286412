-- A rule that keeps a worker busy for about half a second (10M additions):
-- the batch tests kill or time it while it runs. Give it
-- --set lua.max_instructions=2000000000.
bt.rule{ id = "slow", run = function()
  local x = 0
  for i = 1, 10000000 do x = x + i end
  bt.metric("slow.x", x)
end }
