-- SQLite's allocations count too.
bt.rule{ id = "randomblob", run = function()
  bt.scalar("SELECT length(randomblob(600000000))")
end }
