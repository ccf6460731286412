-- The sandbox's matcher gives Lua's results.
local function same(name, got, want)
  if got ~= want then error(name .. ": got " .. tostring(got) .. ", want " .. tostring(want)) end
end
bt.rule{ id = "patterns", run = function()
  same("find", table.concat({ string.find("hello world", "o w") }, ","), "5,7")
  same("find captures", table.concat({ ("key = value"):find("(%w+)%s*=%s*(%w+)") }, ","), "1,11,key,value")
  same("find plain", table.concat({ ("a.b.c"):find(".", 3, true) }, ","), "4,4")
  same("find init", select(1, ("abcabc"):find("b", -3)), 5)
  same("find anchored", ("abc"):find("^b"), nil)
  same("match", ("  trim me  "):match("^%s*(.-)%s*$"), "trim me")
  same("match position", table.concat({ ("hello"):match("()ll()") }, ","), "3,5")
  same("match balance", ("f(a(b)c) d"):match("%b()"), "(a(b)c)")
  same("match frontier", ("THE (quick) fox"):match("%f[%a]%a+%f[%A]", 5), "quick")
  same("match backref", ('say "hi" now'):match("([\"'])(.-)%1", 1), '"')
  same("match set", ("x-1_2]"):match("[%d_%]-]+"), "-1_2]")
  same("match class negation", ("abc123"):match("%D+"), "abc")
  same("match ?", ("color colour"):match("colou?r", 7), "colour")
  local words = {}
  for w in ("one two  three"):gmatch("%a+") do words[#words + 1] = w end
  same("gmatch", table.concat(words, "|"), "one|two|three")
  local pairs_ = {}
  for k, v in ("a=1, b=2"):gmatch("(%w+)=(%w+)") do pairs_[#pairs_ + 1] = k .. v end
  same("gmatch captures", table.concat(pairs_, ","), "a1,b2")
  same("gmatch empty", select(2, ("abc"):gsub("", "-")), 4)
  same("gsub", (("hello world"):gsub("o", "0")), "hell0 w0rld")
  same("gsub count", select(2, ("hello world"):gsub("o", "0", 1)), 1)
  same("gsub %1", (("hello world"):gsub("(%w+)", "<%1>")), "<hello> <world>")
  same("gsub %0 %%", (("ab"):gsub("%w", "%0%%")), "a%b%")
  same("gsub table", (("$x $y"):gsub("%$(%w+)", { x = "1" })), "1 $y")
  same("gsub function", (("1 2 3"):gsub("%d", function(d) return d * 2 end)), "2 4 6")
  same("gsub anchored", (("aaa"):gsub("^a", "b")), "baa")
  local ok, msg = pcall(string.find, "x", "[a")
  same("malformed", ok == false and msg:match("missing ']'") ~= nil, true)
  ok, msg = pcall(string.gsub, "x", "x", "%2")
  same("bad capture", ok == false and msg:match("invalid capture index") ~= nil, true)
  bt.finding{ message = "patterns agree", severity = "info" }
end }
