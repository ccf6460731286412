-- One instruction, 1e15 moves (1e11 with --set move.n: past the CPU left,
-- not the instructions).
bt.rule{ id = "move", params = { n = 1e15 }, run = function(p) table.move({}, 1, p.n, 1) end }
