-- 64 findings of a 90 MiB string: copies into the report count against
-- the file's memory account.
bt.rule{ id = "findings", run = function()
  local s = ("x"):rep(90 << 20)
  for i = 1, 64 do bt.finding{ message = s } end
end }
