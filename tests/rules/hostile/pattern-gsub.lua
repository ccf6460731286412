bt.rule{ id = "gsub", run = function()
  local s = ("a"):rep(5000)
  s:gsub(".-.-.-.-.-b", "x")
end }
