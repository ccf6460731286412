-- Plain finds that miss: a scan of 64 MB charged nothing.
bt.rule{ id = "find", run = function()
  local s = ("a"):rep(64 << 20)
  for i = 1, 20000 do s:find("b", 1, true) end
end }
