bt.rule{ id = "gmatch", run = function()
  for _ in string.gmatch(("a"):rep(5000), "(.-)(.-)(.-)(.-)b") do end
end }
