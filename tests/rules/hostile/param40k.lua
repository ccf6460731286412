-- 40k distinct parameter names: each was looked for in a list (15 s).
bt.rule{ id = "param40k", severity = "info", run = function()
  local sum = 0
  for i = 1, 40000 do sum = sum + bt.param("p" .. i, 1) end
  bt.finding{ message = "read " .. sum }
end }
