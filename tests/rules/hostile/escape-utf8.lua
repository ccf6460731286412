-- utf8.len decodes the whole string.
bt.rule{ id = "utf8", run = function()
  local s = ("a"):rep(64 << 20)
  while true do utf8.len(s) end
end }
