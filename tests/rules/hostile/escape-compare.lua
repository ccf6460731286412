-- Comparing two 32 MB strings is one instruction of the VM: only the CPU
-- clock sees its cost.
bt.rule{ id = "compare", run = function()
  local s = ("a"):rep(32 << 20)
  local t = ("a"):rep((32 << 20) - 1) .. "b"
  local n = 0
  while true do if s < t then n = n + 1 end end
end }
