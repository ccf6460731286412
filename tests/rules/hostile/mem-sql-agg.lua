-- Many rows into one aggregate.
bt.rule{ id = "agg", run = function()
  bt.scalar([[WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000)
SELECT length(group_concat(printf('%.*c', 1000000, 'x'))) FROM c]])
end }
