-- A finalizer in a gate script: refused.
setmetatable({}, { __gc = function() while true do end end })
