-- A plain find is n * m too.
bt.rule{ id = "plain", run = function()
  string.find(("a"):rep(4000000), ("a"):rep(200000) .. "b", 1, true)
end }
