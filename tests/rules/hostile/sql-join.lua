bt.rule{ id = "join", run = function()
  bt.scalar("SELECT count(*) FROM samples a, samples b, samples c, samples d")
end }
