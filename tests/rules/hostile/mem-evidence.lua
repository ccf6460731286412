-- The same through evidence tables (as JSON).
bt.rule{ id = "evidence", run = function()
  local s = ("x"):rep(40 << 20)
  bt.finding{ message = "big", evidence = { t = { s, s, s, s, s, s, s, s } } }
end }
