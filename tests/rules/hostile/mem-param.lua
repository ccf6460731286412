-- Parameter names the run keeps (for "did you mean"): 8k names of 100 KB
-- took 1.57 GB outside the file's account.
bt.rule{ id = "param", run = function()
  local big = ("x"):rep(100000)
  for i = 1, 8000 do bt.param(big .. i, 1) end
end }
