-- One 1 MB string, copied with a number until the account is full: each
-- step one copy (a fresh rep each step was 1M one-byte copies, and under
-- load the 2 s CPU budget stopped it before the memory limit did).
local t, s = {}, ("x"):rep(1 << 20)
for i = 1, math.maxinteger do t[i] = s .. i end
