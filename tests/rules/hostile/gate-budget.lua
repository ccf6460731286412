-- Each check alone fits the budget, all of them together do not: the
-- gate script has one budget, not one per check.
gate.check(function(m) for i = 1, 10000000 do end end)
