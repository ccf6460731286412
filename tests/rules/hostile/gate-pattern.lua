gate.check(function(m) string.find(("a"):rep(5000), ".-.-.-.-.-.-b") end)
