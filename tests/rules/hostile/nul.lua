-- A finding's text, and an evidence key, are not cut at an embedded NUL.
bt.rule{ id = "nul", run = function()
  bt.finding{ message = "before\0after", severity = "info", evidence = { e = "x\0y", ["k\0ey"] = 1 } }
end }
