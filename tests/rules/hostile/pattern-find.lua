-- Pattern matching runs in C, where the count hook never fires.
bt.rule{ id = "find", run = function()
  string.find(("a"):rep(5000), ".-.-.-.-.-.-b")
end }
