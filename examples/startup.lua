-- startup.lua: rules for an Android app-startup review.
--
--   btrace-analyze sampling.bin --rules examples/startup.lua
--   btrace-analyze sampling.bin --rules examples/startup.lua --set lock_ms=20
--
-- Startup runs from the start of the trace to the end of the main-thread
-- Looper message that draws the first frame (the first message whose
-- stack holds a method matching first_frame). Every threshold below is a
-- parameter: --set NAME=VALUE, or --set RULE.NAME=VALUE for one rule.
-- The built-in attribution report (tables and metrics) runs first.

bt.builtin("attribution")

local MS = 1000000

-- Blocking record types (format spec §4.3; 107: an iOS main-thread lock
-- wait) and their kinds.
local KIND = { [8] = "monitor", [6] = "wait", [7] = "park", [11] = "gc", [2] = "binder",
  [20] = "loadlibrary", [12] = "lock", [107] = "lock" }
local KINDS = { "monitor", "wait", "park", "gc", "binder", "loadlibrary", "lock" }

-- Comma-separated Lua patterns -> list.
local function patterns(s)
  local out = {}
  for pat in tostring(s):gmatch("[^,]+") do out[#out + 1] = pat end
  return out
end

-- The stack forest, loaded once per file: parent and frame of every node,
-- and per frame "Class.method" and whether the class is framework code.
local parent, frame_of, frames
local function stacks()
  if parent then return end
  parent, frame_of, frames = {}, {}, {}
  for r in bt.rows("SELECT id, parent_id, frame_id FROM nodes") do
    parent[r.id] = r.parent_id or false
    frame_of[r.id] = r.frame_id
  end
  for r in bt.rows("SELECT id, name, class, method FROM frames") do
    local cm = (r.class and r.method) and (r.class .. "." .. r.method) or r.name
    frames[r.id] = { name = r.name, cm = cm, class = r.class or "" }
  end
end

-- Is a frame framework code? (class prefix in the framework list)
local prefix_lists = {}   -- by the list's text: rules may set their own
local function is_framework(fid, list)
  local prefixes = prefix_lists[list]
  if not prefixes then
    prefixes = patterns(list)
    prefix_lists[list] = prefixes
  end
  local cls = frames[fid] and frames[fid].class or ""
  for _, pre in ipairs(prefixes) do
    if cls:sub(1, #pre) == pre then return true end
  end
  return false
end

-- The innermost app frame of a stack (the code that made the call), or
-- the leaf when the whole stack is framework code.
local function app_frame(node, list)
  stacks()
  local n, first = node, nil
  while n do
    local fid = frame_of[n]
    if not fid then break end
    first = first or fid
    if not is_framework(fid, list) then return fid end
    n = parent[n]
  end
  return first
end

local function name_of(fid)
  return fid and frames[fid] and frames[fid].name or nil
end

-- Startup window: trace start to the end of the first-frame message.
local window
local function startup(p)
  if window then return window end
  stacks()
  local main = bt.main_tid()
  local facts = bt.trace()
  local start = math.tointeger(facts.first_ts) or
    bt.scalar("SELECT min(ts) FROM samples") or 0
  local last = math.tointeger(facts.last_ts) or start
  local want = {}
  local pats = patterns(p.first_frame)
  for fid, f in pairs(frames) do
    for _, pat in ipairs(pats) do
      if f.cm:find(pat) then want[fid] = true break end
    end
  end
  -- hit[node]: the stack through node holds a wanted frame. Parents have
  -- smaller ids than their children, so one pass in id order settles it.
  local hit = {}
  local function under(n)
    local h = hit[n]
    if h == nil then
      local pa = parent[n]
      h = want[frame_of[n]] or (pa and under(pa)) or false
      hit[n] = h
    end
    return h
  end
  window = { start = start, finish = last, found = false }
  if main then
    for s in bt.rows("SELECT ts, msg_id, node_id FROM samples WHERE tid = ? ORDER BY ts, id", main) do
      if under(s.node_id) then
        local m = s.msg_id ~= 0 and bt.query(
          "SELECT ts, dur FROM messages WHERE tid = ? AND msg_id = ?", main, s.msg_id)[1]
        window.finish = m and (m.ts + m.dur) or s.ts
        window.found, window.msg_id, window.frame_ts = true, s.msg_id, s.ts
        break
      end
    end
  end
  return window
end

bt.rule{
  id = "startup-duration",
  severity = "warning",
  params = {
    first_frame = "%.doFrame$",   -- Lua patterns on Class.method, comma-separated
    budget_ms = 0,                -- warn above this many ms (0: no budget)
  },
  run = function(p)
    local w = startup(p)
    local dur = w.finish - w.start
    bt.metric("startup.duration_ns", dur)
    bt.metric("startup.first_frame_found", w.found and 1 or 0)
    local main = bt.main_tid()
    if main then
      -- The main thread inside the window: CPU from its thread clock, and
      -- blocked time by kind (records cut at the window's end).
      local cpu = bt.scalar([[SELECT max(coalesce(end_cpu_ns, cpu_ns)) - min(cpu_ns) FROM samples
WHERE tid = ? AND ts >= ? AND ts <= ? AND cpu_ns IS NOT NULL]], main, w.start, w.finish)
      bt.metric("startup.main.cpu_ns", cpu or 0)
      local blocked = {}
      for r in bt.rows([[SELECT type, sum(min(end_ts, ?) - ts) AS ns FROM samples
WHERE tid = ? AND end_ts IS NOT NULL AND ts >= ? AND ts < ? GROUP BY type]],
        w.finish, main, w.start, w.finish) do
        local kind = KIND[r.type]
        if kind then blocked[kind] = (blocked[kind] or 0) + r.ns end
      end
      for _, kind in ipairs(KINDS) do bt.metric("startup.main.blocked_ns." .. kind, blocked[kind] or 0) end
    end
    if not w.found then
      bt.finding{ severity = "info", ts = w.start, dur = dur, tid = bt.main_tid(),
        message = "no main-thread frame matching '" .. p.first_frame ..
          "': startup taken as the whole trace, " .. bt.ms(dur) }
    elseif p.budget_ms > 0 and dur > p.budget_ms * MS then
      bt.finding{ ts = w.start, dur = dur, tid = bt.main_tid(),
        message = string.format("startup took %s, over the %s budget", bt.ms(dur), bt.ms(p.budget_ms * MS)),
        evidence = { msg_id = w.msg_id, first_frame_ts = w.frame_ts } }
    else
      bt.finding{ severity = "info", ts = w.start, dur = dur, tid = bt.main_tid(),
        message = "startup: first frame drawn after " .. bt.ms(dur),
        evidence = { msg_id = w.msg_id, first_frame_ts = w.frame_ts } }
    end
  end }

bt.rule{
  id = "main-lock-wait",
  severity = "warning",
  params = {
    lock_ms = 5,   -- report main-thread monitor / wait / park / lock waits this long
    framework = "android.,androidx.,com.android.,java.,javax.,sun.,dalvik.,libcore.,kotlin.",
  },
  run = function(p)
    local main = bt.main_tid()
    if not main then return end
    for e in bt.edges{ tid = main, min_dur = math.floor(p.lock_ms * MS) } do
      local waiter = bt.query("SELECT node_id FROM samples WHERE id = ?", e.waiter_sample_id)[1]
      local caller = waiter and app_frame(waiter.node_id, p.framework)
      local waker_method = e.waker_node_id and app_frame(e.waker_node_id, p.framework)
      local who = e.waker_tid and (bt.thread_name(e.waker_tid) .. " (" .. e.waker_tid .. ")") or "an unknown thread"
      bt.finding{ tid = main, ts = e.ts, dur = e.dur,
        message = string.format("main thread blocked %s on %s in %s, released by %s in %s",
          bt.ms(e.dur), e.kind, bt.short(name_of(caller)), who,
          e.waker_node_id and bt.short(name_of(waker_method)) or "?"),
        evidence = { kind = e.kind, lock_id = e.lock_id, method = bt.frame_name(e.waiter_frame_id),
          caller = name_of(caller), waker_tid = e.waker_tid, waker_ts = e.waker_ts,
          waker_frame = e.waker_frame_id and bt.frame_name(e.waker_frame_id),
          waker_method = e.waker_node_id and name_of(waker_method) } }
    end
  end }

-- Blocking records of one type on the main thread, in time order, at
-- least min_ns long and (when window) inside startup.
local function main_records(rtype, min_ns, window)
  local main = bt.main_tid()
  local out = {}
  if not main then return out end
  local sql = [[
SELECT s.ts, s.end_ts - s.ts AS dur, s.node_id, s.msg_id, n.frame_id
FROM samples s JOIN nodes n ON n.id = s.node_id
WHERE s.tid = ? AND s.type = ? AND s.end_ts - s.ts >= ?]] ..
    (window and " AND s.ts < ?" or "") .. " ORDER BY s.ts"
  local args = { main, rtype, min_ns }
  if window then args[4] = window.finish end
  for r in bt.rows(sql, table.unpack(args)) do out[#out + 1] = r end
  return out
end

local function blocking_rule(id, rtype, what, param, default, in_startup)
  bt.rule{
    id = id,
    severity = "warning",
    params = {
      [param] = default,
      first_frame = "%.doFrame$",
      framework = "android.,androidx.,com.android.,java.,javax.,sun.,dalvik.,libcore.,kotlin.",
    },
    run = function(p)
      local w = in_startup and startup(p) or nil
      for _, r in ipairs(main_records(rtype, math.floor(p[param] * MS), w)) do
        local caller = app_frame(r.node_id, p.framework)
        bt.finding{ tid = bt.main_tid(), ts = r.ts, dur = r.dur,
          message = string.format("%s on the main thread for %s in %s", what, bt.ms(r.dur),
            bt.short(name_of(caller))),
          evidence = { method = bt.frame_name(r.frame_id), caller = name_of(caller), msg_id = r.msg_id } }
      end
    end }
end

-- Record types: format spec §4.3 (queries/schema.sql record_types).
blocking_rule("main-binder", 2, "binder call", "binder_ms", 5, false)
blocking_rule("main-loadlibrary", 20, "System.loadLibrary", "loadlibrary_ms", 0, false)
blocking_rule("startup-gc", 11, "wait for GC during startup", "gc_ms", 2, true)

bt.rule{
  id = "long-message",
  severity = "warning",
  params = {
    message_ms = 50,    -- main-thread Looper messages this long are reported
    anr_ms = 5000,      -- and as errors from this long (input-dispatch ANR)
    methods = 3,        -- top self methods named per message
  },
  run = function(p)
    local main = bt.main_tid()
    if not main then return end
    for m in bt.messages{ tid = main, min_dur = math.floor(p.message_ms * MS) } do
      local top = {}
      for r in bt.rows([[SELECT frame_id, self_ns FROM message_methods
WHERE tid = ? AND msg_id = ? ORDER BY rank LIMIT ?]], main, m.msg_id, math.tointeger(p.methods) or 3) do
        top[#top + 1] = bt.short(bt.frame_name(r.frame_id)) .. " " .. bt.ms(r.self_ns)
      end
      bt.finding{ tid = main, ts = m.ts, dur = m.dur,
        severity = m.dur >= p.anr_ms * MS and "error" or nil,
        message = string.format("message %d ran %s on the main thread%s", m.msg_id, bt.ms(m.dur),
          #top > 0 and (": " .. table.concat(top, ", ")) or ""),
        evidence = { msg_id = m.msg_id, cpu_ns = m.cpu_dur, top_methods = table.concat(top, "; ") } }
    end
  end }

-- First and last sample time of each wanted frame on one thread: per
-- node, the wanted frames on its stack (shared with the parent's list
-- unless the node adds one).
local function spans(tid, want)
  stacks()
  local on, out = {}, {}
  local none = {}
  local function stack_of(n)
    local l = on[n]
    if l == nil then
      local pa = parent[n]
      l = pa and stack_of(pa) or none
      local fid = frame_of[n]
      if want[fid] then
        local c = { fid }
        for _, x in ipairs(l) do c[#c + 1] = x end
        l = c
      end
      on[n] = l
    end
    return l
  end
  if next(want) == nil then return out end
  for s in bt.rows("SELECT ts, coalesce(end_ts, ts) AS te, node_id FROM samples WHERE tid = ?", tid) do
    for _, fid in ipairs(stack_of(s.node_id)) do
      local x = out[fid]
      if not x then out[fid] = { first = s.ts, last = s.te }
      else
        if s.ts < x.first then x.first = s.ts end
        if s.te > x.last then x.last = s.te end
      end
    end
  end
  return out
end

-- Heavy allocation or page faults in startup-style methods (onCreate...).
local function method_rule(id, column, what, param, default, fmt)
  bt.rule{
    id = id,
    severity = "warning",
    params = {
      [param] = default,
      methods = "%.onCreate%w*$,%.onStart$,%.onResume$,%.attachBaseContext$,%.startup%.",
    },
    run = function(p)
      local main = bt.main_tid()
      if not main then return end
      stacks()
      local pats = patterns(p.methods)
      local limit = p[param] * (column == "incl_alloc_bytes" and 1024 or 1)
      local hits, want = {}, {}
      for m in bt.methods{ tid = main, order = column } do
        if m[column] < limit then break end
        local cm = frames[m.frame_id] and frames[m.frame_id].cm or m.name
        for _, pat in ipairs(pats) do
          if cm:find(pat) then
            hits[#hits + 1], want[m.frame_id] = m, true
            break
          end
        end
      end
      local span = spans(main, want)
      local self_col = column:gsub("^incl_", "self_")
      for _, m in ipairs(hits) do
        local s = span[m.frame_id]
        bt.finding{ tid = main, ts = s and s.first, dur = s and (s.last - s.first),
          message = string.format("%s %s in %s (%s in the method itself)", fmt(m[column]), what,
            bt.short(m.name), fmt(m[self_col])),
          evidence = { method = m.name, [column] = m[column], [self_col] = m[self_col],
            incl_ns = m.incl_ns } }
      end
    end }
end

method_rule("startup-method-alloc", "incl_alloc_bytes", "allocated", "alloc_kb", 1024, bt.bytes)
method_rule("startup-method-faults", "incl_majflt", "major page faults", "majflt", 20,
  function(n) return tostring(n) end)
