-- SQL runs in SQLite's VM: its steps count against the file's budget.
bt.rule{ id = "cte", run = function()
  bt.scalar("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
end }
