-- A finding's text is not cut at an embedded NUL.
bt.rule{ id = "nul", run = function()
  bt.finding{ message = "before\0after", severity = "info", evidence = { e = "x\0y" } }
end }
