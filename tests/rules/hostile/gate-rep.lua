gate.check(function(m) string.rep("", math.maxinteger) end)
