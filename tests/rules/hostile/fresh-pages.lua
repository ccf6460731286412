-- Copies of a large string (bt.param("kb") KiB): each a block malloc maps
-- fresh, charged by its bytes and by its pages (their faults), so a
-- hundred 1 MiB copies spend a 3M-instruction budget that a hundred
-- 64 KiB ones (reused heap memory, bytes alone) do not.
bt.rule{ id = "fresh", run = function()
  local big = ("a"):rep(bt.param("kb", 1024) * 1024)
  local n = 0
  for i = 1, 100 do n = n + #(big .. i) end
  bt.finding{ message = "done " .. n }
end }
