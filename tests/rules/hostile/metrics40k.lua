-- 40k metrics from a rule, each set twice: hashed, and the replaced
-- value is released (make asan).
bt.rule{ id = "metrics", run = function()
  for pass = 1, 2 do
    for i = 1, 40000 do bt.metric("m." .. i, i * pass) end
  end
end }
