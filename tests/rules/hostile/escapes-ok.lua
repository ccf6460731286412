-- What rules may still do: coroutines that yield, sort, insert, rep, utf8, an error through wrap.
bt.rule{ id = "ok", severity = "info", run = function()
  local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1); return b * 2 end)
  assert(co(1) == 2); assert(co(5) == 10)
  local t = {3,1,2}; table.sort(t); assert(table.concat(t, ",") == "1,2,3")
  table.insert(t, 1, 0); assert(table.remove(t, 1) == 0)
  assert(("ab"):rep(3, "-") == "ab-ab-ab")
  assert(select("#", 1, 2, 3) == 3)
  assert(utf8.len("héllo") == 5)
  local ok, err = pcall(coroutine.wrap(function() error("boom") end))
  local gen = coroutine.create(function() for k = 1, 3 do coroutine.yield(k) end end)
  local sum = 0
  while true do
    local _, k = coroutine.resume(gen)
    if not k then break end
    sum = sum + k
  end
  bt.finding{ message = "fine " .. tostring(ok) .. " " .. tostring(err:match("boom")) .. " " .. sum }
end }
