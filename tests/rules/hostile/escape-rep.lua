-- One instruction, no end: string.rep loops n times even for an empty result.
bt.rule{ id = "rep", run = function() string.rep("", math.maxinteger) end }
