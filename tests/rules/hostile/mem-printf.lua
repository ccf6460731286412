bt.rule{ id = "printf", run = function()
  bt.scalar("SELECT length(printf('%.*c', 600000000, 'x'))")
end }
