-- Huge table cells.
bt.rule{ id = "cells", run = function()
  local s = ("y"):rep(30 << 20)
  local rows = {}
  for i = 1, 20 do rows[i] = { s } end
  bt.table{ name = "huge", columns = { "text" }, rows = rows }
end }
