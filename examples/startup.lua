-- startup.lua: rules for an Android app-startup review.
--
--   btrace-analyze sampling.bin --rules examples/startup.lua
--   btrace-analyze sampling.bin --rules examples/startup.lua --set lock_ms=20
--
-- Built on the engine's startup model (tables startup, startup_phases,
-- startup_methods, startup_blocking): every rule looks inside the startup
-- window (startup.ts .. end_ts) unless scope=trace; without a startup row
-- the window is the whole trace, and the first finding says so. The
-- duration and the main thread's breakdown are headlines: listed first.
-- Repeated findings are grouped: past `cap` (5) a rule gives one summary
-- finding plus its cap longest. Every threshold is a parameter: --set
-- NAME=VALUE, or --set RULE.NAME=VALUE for one rule. The rules read
-- samples where the trace has them and slices, edges and messages where
-- it has only those (Perfetto imports). The attribution report runs first.

bt.builtin("attribution")

local MS = 1000000
local main_tid   -- the startup's main thread (below, with the window)
local window_breakdown   -- the main thread in the window without the model (below)
-- The class prefixes skipped when naming a caller; "" is the engine's own
-- notion (bt.is_app, SQL's bt_app_node), which the waits table, the
-- exports and the gate's holders use, so they name a wait alike.
local FRAMEWORK = ""

-- Parameters every rule has, plus its own.
local function params(own)
  local p = { scope = "startup", cap = 5, first_frame = "" }
  for k, v in pairs(own) do p[k] = v end
  return p
end

-- Comma-separated Lua patterns -> list.
local function patterns(s)
  local out = {}
  for pat in tostring(s):gmatch("[^,]+") do out[#out + 1] = pat end
  return out
end

-- "1,178"
local function commas(n)
  local s = tostring(math.tointeger(n) or n)
  local r
  repeat s, r = s:gsub("^(%d+)(%d%d%d)", "%1,%2") until r == 0
  return s
end

-- The stack forest, loaded once: parent and frame of every node, and per
-- frame "Class.method" and its class.
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

local prefix_lists = {}   -- by the list's text: rules may set their own
local function is_framework(fid, list)
  if list == "" then return not (frames[fid] and bt.is_app(frames[fid].name)) end
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

local function name_of(fid)
  return fid and frames[fid] and frames[fid].name or nil
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

-- The same from a slice: up its parents (slice-only inputs have no nodes).
local function app_frame_of_slice(id, list)
  stacks()
  local first
  while id do
    local s = bt.query("SELECT parent_id, frame_id FROM slices WHERE id = ?", id)[1]
    if not s then break end
    first = first or s.frame_id
    if not is_framework(s.frame_id, list) then return s.frame_id end
    id = s.parent_id
  end
  return first
end

-- The deepest main-thread slice holding ts..ts+dur (a wait without a sample).
local function slice_at(tid, ts, dur)
  return bt.scalar([[SELECT id FROM slices WHERE tid = ? AND ts <= ? AND ts + dur >= ?
ORDER BY depth DESC LIMIT 1]], tid, ts, ts + dur)
end

local function in_window(w, ts)
  return ts >= w.start and ts < w.finish
end

-- Emit a rule's items: each one up to cap (0: no cap); past it, one
-- summary finding ("1,178 main-thread waits >= 5 ms, 9.7 s in total; the
-- 5 longest: ...") then the cap longest. An item: key (sorts, longest
-- first), ts, dur, build() -> finding table, short() -> text.
local function emit(p, items, what, total)
  local cap = math.tointeger(p.cap) or 5
  if cap <= 0 or #items <= cap then
    for _, it in ipairs(items) do bt.finding(it.build()) end
    return
  end
  local first, last = math.maxinteger, math.mininteger
  for _, it in ipairs(items) do
    if it.ts < first then first = it.ts end
    if it.ts + (it.dur or 0) > last then last = it.ts + (it.dur or 0) end
  end
  local top = {}
  for i, it in ipairs(items) do top[i] = it end
  table.sort(top, function(a, b) if a.key ~= b.key then return a.key > b.key end return a.ts < b.ts end)
  local shown, texts = {}, {}
  for i = 1, cap do shown[i] = top[i].build() texts[i] = top[i].short() end
  bt.finding{ tid = main_tid(), ts = first, dur = last - first,
    message = string.format("%s %s%s; the %d %s: %s", commas(#items), what,
      total and (", " .. bt.ms(total) .. " in total") or "", cap,
      total and "longest" or "largest", table.concat(texts, "; ")),
    evidence = { count = #items, total_ns = total, shown = cap } }
  for _, f in ipairs(shown) do bt.finding(f) end
end

local function sum_dur(items)
  local t = 0
  for _, it in ipairs(items) do t = t + it.dur end
  return t
end

------------------------------------------------------------ the window

-- The startup row, or false (none, or a database older than the model).
local model
local function startup_row()
  if model == nil then
    local ok, rows = pcall(bt.query, "SELECT * FROM startup ORDER BY ts LIMIT 1")
    model = ok and rows[1] or false
  end
  return model
end

function main_tid()
  local s = startup_row()
  return s and s.tid or bt.main_tid()
end

local function startup_package()
  local s = startup_row()
  if s and s.package then return s.package end
  local tid = main_tid()
  return tid and bt.thread_name(tid)
end

-- Without a model, first_frame (Lua patterns on Class.method) can still
-- end the window: at the end of the main-thread message that first runs
-- a matching method (outside messages: where that method starts).
local function first_frame_end(pats)
  stacks()
  local ids = {}
  for fid, f in pairs(frames) do
    for _, pat in ipairs(pats) do
      if f.cm:find(pat) then ids[#ids + 1] = math.tointeger(fid) break end
    end
  end
  if #ids == 0 or not main_tid() then return nil end
  table.sort(ids)
  local s = bt.query("SELECT ts, dur, msg_id FROM slices WHERE tid = ? AND frame_id IN (" ..
    table.concat(ids, ",") .. ") ORDER BY ts, depth LIMIT 1", main_tid())[1]
  if not s then return nil end
  local m = s.msg_id ~= 0 and bt.query("SELECT ts + dur AS e FROM messages WHERE tid = ? AND msg_id = ?",
    main_tid(), s.msg_id)[1]
  -- the slice may open before its first sample (slice policy): use the sample
  local at = bt.scalar("SELECT min(ts) FROM samples WHERE tid = ? AND ts >= ? AND ts <= ?",
    main_tid(), s.ts, s.ts + s.dur)
  return m and m.e or at or s.ts, s.msg_id
end

-- The window the rules look at: {start, finish, row, whole, found, scope, why}.
local windows = {}
local function W(p)
  if p.scope ~= "startup" and p.scope ~= "trace" then
    error("scope must be startup or trace, not '" .. tostring(p.scope) .. "'")
  end
  local key = p.scope .. "\0" .. p.first_frame
  if windows[key] then return windows[key] end
  local facts = bt.trace()
  local first = math.tointeger(facts.first_ts) or bt.scalar("SELECT min(ts) FROM slices") or 0
  local last = math.tointeger(facts.last_ts) or bt.scalar("SELECT max(ts + dur) FROM slices") or first
  local s = startup_row()
  local w = { start = first, finish = last, whole = true, scope = p.scope, row = s or nil }
  if s and s.end_ts then w.found = true end
  if p.scope == "startup" and s then
    w.start, w.finish, w.whole = s.ts, s.end_ts or last, false
  elseif not s then
    w.why = "no app start found in the trace (no startup row)"
    if p.first_frame ~= "" then
      local e, msg = first_frame_end(patterns(p.first_frame))
      if e then
        w.finish, w.whole, w.found, w.msg_id = e, false, true, msg
        w.why = "no startup row; the first frame matching '" .. p.first_frame .. "' ends the window"
      else
        w.why = "no startup row and no main-thread frame matching '" .. p.first_frame .. "'"
      end
    end
  end
  windows[key] = w
  return w
end

----------------------------------------------------------------- headlines

-- Blocking record types (format spec §4.3; 107: an iOS main-thread lock
-- wait) and their kinds.
local KIND = { [8] = "monitor", [6] = "wait", [7] = "park", [11] = "gc", [2] = "binder",
  [20] = "loadlibrary", [12] = "lock", [107] = "lock" }
local KINDS = { "monitor", "wait", "park", "gc", "binder", "loadlibrary", "lock" }

-- Without the model: the main thread's CPU (thread clock) and blocked time
-- by kind inside the window, from its samples (records cut at the end).
window_breakdown = function(w, main)
  if not main then return end
  local cpu = bt.scalar([[SELECT max(coalesce(end_cpu_ns, cpu_ns)) - min(cpu_ns) FROM samples
WHERE tid = ? AND ts >= ? AND ts <= ? AND cpu_ns IS NOT NULL]], main, w.start, w.finish)
  bt.metric("startup.main.cpu_ns", cpu or 0)
  local blocked = {}
  for r in bt.rows([[SELECT type, sum(min(end_ts, ?) - ts) AS ns FROM samples
WHERE tid = ? AND end_ts IS NOT NULL AND ts >= ? AND ts < ? GROUP BY type ORDER BY type]],
    w.finish, main, w.start, w.finish) do
    local kind = KIND[r.type]
    if kind then blocked[kind] = (blocked[kind] or 0) + r.ns end
  end
  for _, kind in ipairs(KINDS) do bt.metric("startup.main.blocked_ns." .. kind, blocked[kind] or 0) end
end

bt.rule{
  id = "startup-duration",
  severity = "info",
  params = params{
    cold_ms = 5000, warm_ms = 2000, hot_ms = 1500,   -- Android vitals' slow starts
    budget_ms = 0,                                   -- warn above this too (0: none)
  },
  run = function(p)
    local w = W(p)
    local dur = w.finish - w.start
    bt.metric("startup.duration_ns", dur)
    bt.metric("startup.first_frame_found", w.found and 1 or 0)
    bt.metric("startup.found", w.row and 1 or 0)
    local tid = main_tid()
    if not w.row then
      window_breakdown(w, tid)
      bt.finding{ headline = true, tid = tid, ts = w.start, dur = dur,
        severity = (p.budget_ms > 0 and dur > p.budget_ms * MS) and "warning" or nil,
        message = w.why .. ": the rules look at " .. (w.found and "it, " or "the whole trace, ") ..
          bt.ms(dur), evidence = { scope = w.scope, msg_id = w.msg_id } }
      return
    end
    local s = w.row
    local limit = (p[s.kind .. "_ms"] or 0) * MS
    local slow = s.ttid_ns and limit > 0 and s.ttid_ns >= limit
    local over = s.ttid_ns and p.budget_ms > 0 and s.ttid_ns > p.budget_ms * MS
    bt.metric("startup.ttid_ns", s.ttid_ns or dur)
    if s.ttfd_ns then bt.metric("startup.ttfd_ns", s.ttfd_ns) end
    bt.metric("startup.slow", slow and 1 or 0)
    local msg = string.format("%s start of %s: initial display after %s%s", s.kind, s.package or "the app",
      s.ttid_ns and bt.ms(s.ttid_ns) or "? (no first frame found)",
      s.ttfd_ns and (", full display after " .. bt.ms(s.ttfd_ns)) or "")
    if slow then
      msg = msg .. string.format(", slow (Android vitals: %s for a %s start)", bt.ms(limit), s.kind)
    elseif over then
      msg = msg .. ", over the " .. bt.ms(p.budget_ms * MS) .. " budget"
    end
    if w.scope == "trace" then msg = msg .. "; scope=trace: the rules look at the whole trace" end
    bt.finding{ headline = true, tid = tid, ts = s.ts, dur = s.ttid_ns or dur,
      severity = (slow or over) and "warning" or nil, message = msg,
      evidence = { kind = s.kind, package = s.package, ttid_ns = s.ttid_ns, ttfd_ns = s.ttfd_ns,
        source = s.source, end_source = s.end_source, slow_ns = limit } }
  end }

-- The main thread in startup, from startup_phases / _blocking / _methods.
bt.rule{
  id = "startup-breakdown",
  severity = "info",
  params = params{ top = 3 },   -- methods named per phase
  run = function(p)
    local w = W(p)
    if not w.row then return end
    local blocked = {}
    for b in bt.rows("SELECT kind, count, dur FROM startup_blocking WHERE phase = 'startup' ORDER BY dur DESC, kind") do
      blocked[#blocked + 1] = b.kind .. " " .. bt.ms(b.dur)
      bt.metric("startup.main.blocked_ns." .. b.kind, b.dur)
    end
    for ph in bt.rows("SELECT * FROM startup_phases ORDER BY ts, dur DESC, phase") do
      local pre = "startup.phase." .. ph.phase .. "."
      bt.metric(pre .. "dur_ns", ph.dur)
      for _, k in ipairs{ "cpu_ns", "blocked_ns", "idle_ns", "unexplained_ns" } do
        if ph[k] then bt.metric(pre .. k, ph[k]) end
      end
      if ph.phase == "startup" and ph.cpu_ns then bt.metric("startup.main.cpu_ns", ph.cpu_ns) end
      -- ranked by self CPU time, or by self wall time where the trace has none
      local top, by = {}, "CPU"
      for m in bt.rows("SELECT frame_id, self_cpu_ns, self_ns FROM startup_methods WHERE phase = ? ORDER BY rank LIMIT ?",
        ph.phase, math.tointeger(p.top) or 3) do
        if m.self_cpu_ns == nil then by = "wall" end
        top[#top + 1] = bt.short(bt.frame_name(m.frame_id)) .. " " .. bt.ms(m.self_cpu_ns or m.self_ns)
      end
      -- a trace without CPU times (atrace markers only) leaves running and
      -- unexplained time unknown, not 0
      local unknown = "unknown (no CPU times in the trace)"
      bt.finding{ headline = true, tid = main_tid(), ts = ph.ts, dur = ph.dur,
        message = string.format("%s %s: running %s, blocked %s%s, idle %s, unexplained %s%s",
          ph.phase, bt.ms(ph.dur), ph.cpu_ns and bt.ms(ph.cpu_ns) or unknown, bt.ms(ph.blocked_ns),
          (ph.phase == "startup" and #blocked > 0) and (" (" .. table.concat(blocked, ", ") .. ")") or "",
          bt.ms(ph.idle_ns), ph.unexplained_ns and bt.ms(ph.unexplained_ns) or "unknown",
          #top > 0 and ("; top by " .. by .. ": " .. table.concat(top, ", ")) or ""),
        evidence = { phase = ph.phase, source = ph.source, exact = ph.exact, cpu_ns = ph.cpu_ns,
          blocked_ns = ph.blocked_ns, idle_ns = ph.idle_ns, unexplained_ns = ph.unexplained_ns } }
    end
  end }

----------------------------------------------------------------- waits

bt.rule{
  id = "main-lock-wait",
  severity = "warning",
  params = params{
    lock_ms = 5,   -- report main-thread monitor / wait / park / lock waits this long
    framework = FRAMEWORK,
  },
  run = function(p)
    local w, main = W(p), main_tid()
    if not main then return end
    local items = {}
    for e in bt.edges{ tid = main, min_dur = math.floor(p.lock_ms * MS) } do
      if in_window(w, e.ts) then
        local function build()
          local node = e.waiter_sample_id and
            bt.scalar("SELECT node_id FROM samples WHERE id = ?", e.waiter_sample_id) or e.waiter_node_id
          local caller = node and app_frame(node, p.framework) or
            app_frame_of_slice(slice_at(main, e.ts, e.dur), p.framework)
          local waker_method = e.waker_node_id and app_frame(e.waker_node_id, p.framework)
          local who = e.waker_tid and (bt.thread_name(e.waker_tid) .. " (" .. e.waker_tid .. ")") or "an unknown thread"
          return { tid = main, ts = e.ts, dur = e.dur,
            message = string.format("main thread blocked %s on %s in %s, released by %s in %s",
              bt.ms(e.dur), e.kind, bt.short(name_of(caller)), who,
              e.waker_node_id and bt.short(name_of(waker_method)) or "?"),
            evidence = { kind = e.kind, lock_id = e.lock_id, method = bt.frame_name(e.waiter_frame_id),
              caller = name_of(caller), waker_tid = e.waker_tid, waker_ts = e.waker_ts,
              waker_frame = e.waker_frame_id and bt.frame_name(e.waker_frame_id),
              waker_method = e.waker_node_id and name_of(waker_method) } }
        end
        items[#items + 1] = { key = e.dur, ts = e.ts, dur = e.dur, build = build,
          short = function()
            return string.format("%s %s, released by %s", bt.ms(e.dur), e.kind,
              e.waker_tid and bt.thread_name(e.waker_tid) or "?")
          end }
      end
    end
    emit(p, items, "main-thread waits >= " .. bt.ms(math.floor(p.lock_ms * MS)), sum_dur(items))
  end }

-- Main-thread blocks of one record type in the window: from samples where
-- the main thread has them, else from slices whose frame name matches
-- one of names (atrace / Perfetto names of the same waits).
local function main_blocks(w, rtype, names, min_ns, list)
  local main = main_tid()
  local out = {}
  if not main then return out end
  if bt.scalar("SELECT 1 FROM samples WHERE tid = ? LIMIT 1", main) then
    for r in bt.rows([[
SELECT s.id AS sample_id, s.ts, s.end_ts - s.ts AS dur, s.node_id, s.msg_id, n.frame_id
FROM samples s JOIN nodes n ON n.id = s.node_id
WHERE s.tid = ? AND s.type = ? AND s.end_ts - s.ts >= ? AND s.ts >= ? AND s.ts < ? ORDER BY s.ts]],
      main, rtype, min_ns, w.start, w.finish) do
      r.caller = function() return app_frame(r.node_id, list) end
      out[#out + 1] = r
    end
    return out
  end
  stacks()
  local ids = {}
  for fid, f in pairs(frames) do
    for _, pat in ipairs(names) do
      if f.name:find(pat) then ids[#ids + 1] = math.tointeger(fid) break end
    end
  end
  if #ids == 0 then return out end
  table.sort(ids)
  for r in bt.rows("SELECT id, ts, dur, msg_id, frame_id FROM slices WHERE tid = ? AND dur >= ? AND ts >= ? AND ts < ?" ..
    " AND (type = ? OR frame_id IN (" .. table.concat(ids, ",") .. ")) ORDER BY ts, depth",
    main, min_ns, w.start, w.finish, rtype) do
    r.caller = function() return app_frame_of_slice(r.id, list) end
    out[#out + 1] = r
  end
  return out
end

-- Who served a binder call, where the capture holds the server's process
-- (several dumps imported together): ", served by PROCESS's THREAD in
-- METHOD (busy|blocked)" and the evidence, or "" and nil.
local function served_by(sample_id, list)
  if not sample_id then return "" end
  local c = bt.query([[
SELECT c.server_tid, c.why, c.blocked_dur, p.name AS process, e.waker_node_id
FROM binder_calls c JOIN blocking_edges e ON e.waiter_sample_id = c.client_sample_id AND e.kind = 'binder'
LEFT JOIN processes p ON p.pid = c.server_pid
WHERE c.client_sample_id = ?]], sample_id)[1]
  if not c then return "" end
  local method = c.waker_node_id and app_frame(c.waker_node_id, list)
  return string.format(", served by %s's %s in %s (%s)", c.process or "?", bt.thread_name(c.server_tid),
      bt.short(name_of(method) or "?"), c.why or "why unknown: no scheduler data"),
    { server_tid = c.server_tid, server_process = c.process, server_method = name_of(method), why = c.why,
      server_blocked_ns = c.blocked_dur }
end

local function blocking_rule(id, rtype, names, what, plural, param, default)
  bt.rule{
    id = id,
    severity = "warning",
    params = params{ [param] = default, framework = FRAMEWORK },
    run = function(p)
      local w, main = W(p), main_tid()
      local items = {}
      for _, r in ipairs(main_blocks(w, rtype, names, math.floor(p[param] * MS), p.framework)) do
        items[#items + 1] = { key = r.dur, ts = r.ts, dur = r.dur,
          short = function() return bt.ms(r.dur) end,
          build = function()
            local caller = r.caller()
            local served, server = served_by(rtype == 2 and r.sample_id, p.framework)
            local evidence = { method = bt.frame_name(r.frame_id), caller = name_of(caller), msg_id = r.msg_id }
            for k, v in pairs(server or {}) do evidence[k] = v end
            return { tid = main, ts = r.ts, dur = r.dur,
              message = string.format("%s on the main thread for %s in %s%s", what, bt.ms(r.dur),
                bt.short(name_of(caller)), served),
              evidence = evidence }
          end }
      end
      emit(p, items, plural .. " on the main thread >= " .. bt.ms(math.floor(p[param] * MS)), sum_dur(items))
    end }
end

-- Record types: format spec §4.3 (queries/schema.sql record_types).
blocking_rule("main-binder", 2, { "^binder transact", "BinderProxy%.transact" }, "binder call", "binder calls", "binder_ms", 5)
blocking_rule("main-loadlibrary", 20, { "loadLibrary" }, "System.loadLibrary", "System.loadLibrary calls", "loadlibrary_ms", 0)
blocking_rule("startup-gc", 11, { "WaitForGcToComplete", "^GC: Wait" }, "wait for GC", "GC waits", "gc_ms", 2)

bt.rule{
  id = "long-message",
  severity = "warning",
  params = params{
    message_ms = 50,    -- main-thread Looper messages this long are reported
    anr_ms = 5000,      -- and as errors from this long (input-dispatch ANR)
    methods = 3,        -- top self methods named per message
  },
  run = function(p)
    local w, main = W(p), main_tid()
    if not main then return end
    local items = {}
    for m in bt.messages{ tid = main, min_dur = math.floor(p.message_ms * MS) } do
      if m.ts < w.finish and m.ts + m.dur > w.start then
        items[#items + 1] = { key = m.dur, ts = m.ts, dur = m.dur,
          short = function() return "message " .. m.msg_id .. " " .. bt.ms(m.dur) end,
          build = function()
            local top = {}
            for r in bt.rows([[SELECT frame_id, self_ns FROM message_methods
WHERE tid = ? AND msg_id = ? ORDER BY rank LIMIT ?]], main, m.msg_id, math.tointeger(p.methods) or 3) do
              top[#top + 1] = bt.short(bt.frame_name(r.frame_id)) .. " " .. bt.ms(r.self_ns)
            end
            return { tid = main, ts = m.ts, dur = m.dur,
              severity = m.dur >= p.anr_ms * MS and "error" or nil,
              message = string.format("message %d ran %s on the main thread%s", m.msg_id, bt.ms(m.dur),
                #top > 0 and (": " .. table.concat(top, ", ")) or ""),
              evidence = { msg_id = m.msg_id, cpu_ns = m.cpu_dur, top_methods = table.concat(top, "; ") } }
          end }
      end
    end
    table.sort(items, function(a, b) return a.ts < b.ts end)
    emit(p, items, "main-thread messages >= " .. bt.ms(math.floor(p.message_ms * MS)), sum_dur(items))
  end }

----------------------------------------------------------------- methods

-- App methods: those of the app's package (the startup row's, else the
-- main thread's name) and those matching a `methods` pattern.
local function app_methods(p)
  stacks()
  local pkg = p.package ~= "" and p.package or startup_package()
  local pats = patterns(p.methods)
  local want = {}
  for fid, f in pairs(frames) do
    local ok = pkg and pkg ~= "" and (f.class == pkg or f.class:sub(1, #pkg + 1) == pkg .. ".")
    if not ok then
      for _, pat in ipairs(pats) do
        if f.cm:find(pat) then ok = true break end
      end
    end
    if ok then want[fid] = true end
  end
  return want
end

-- Per wanted method on one thread inside the window: inclusive column
-- (nested activations once) and the first and last activation.
local function window_totals(tid, w, want, column)
  local out, open_end = {}, {}
  for s in bt.rows("SELECT frame_id, ts, dur, " .. column .. " AS v FROM slices WHERE tid = ? AND ts >= ? AND ts < ?" ..
    " ORDER BY ts, depth", tid, w.start, w.finish) do
    local fid = s.frame_id
    if want[fid] and s.ts >= (open_end[fid] or math.mininteger) then
      open_end[fid] = s.ts + s.dur
      local x = out[fid]
      if not x then out[fid] = { v = s.v, first = s.ts, last = s.ts + s.dur }
      else x.v, x.last = x.v + s.v, s.ts + s.dur end
    end
  end
  return out
end

-- The whole trace: the methods table, spans from the slices.
local function trace_totals(tid, want, column)
  local out = {}
  for m in bt.methods{ tid = tid, order = column } do
    if m[column] <= 0 then break end
    if want[m.frame_id] then
      out[m.frame_id] = { v = m[column], self = m[column:gsub("^incl_", "self_")], incl_ns = m.incl_ns }
    end
  end
  for s in bt.rows("SELECT frame_id, min(ts) AS first, max(ts + dur) AS last FROM slices WHERE tid = ? GROUP BY frame_id ORDER BY frame_id", tid) do
    local x = out[s.frame_id]
    if x then x.first, x.last = s.first, s.last end
  end
  return out
end

-- Heavy allocation or page faults in the app's methods.
local function method_rule(id, column, what, param, default, scale, fmt)
  bt.rule{
    id = id,
    severity = "warning",
    params = params{
      [param] = default,
      package = "",   -- the app's package; "": the startup row's, else the main thread's name
      methods = "%.onCreate%w*$,%.onStart$,%.onResume$,%.attachBaseContext$",
    },
    run = function(p)
      local w, main = W(p), main_tid()
      if not main then return end
      local want = app_methods(p)
      local limit = p[param] * scale
      local tot = w.whole and trace_totals(main, want, "incl_" .. column) or
        window_totals(main, w, want, column)
      local items = {}
      for fid, x in pairs(tot) do
        if x.v >= limit and x.v > 0 then
          local name = name_of(fid) or bt.frame_name(fid)
          items[#items + 1] = { key = x.v, ts = x.first or w.start, dur = x.first and (x.last - x.first),
            short = function() return fmt(x.v) .. " " .. bt.short(name) end,
            build = function()
              return { tid = main, ts = x.first, dur = x.first and (x.last - x.first),
                message = string.format("%s %s in %s%s", fmt(x.v), what, bt.short(name),
                  x.self and (" (" .. fmt(x.self) .. " in the method itself)") or
                    (w.whole and "" or " during startup")),
                evidence = { method = name, ["incl_" .. column] = x.v,
                  ["self_" .. column] = x.self, incl_ns = x.incl_ns } }
            end }
        end
      end
      table.sort(items, function(a, b) if a.ts ~= b.ts then return a.ts < b.ts end return a.key > b.key end)
      emit(p, items, "app methods with " .. what .. " >= " .. fmt(limit))
    end }
end

method_rule("startup-method-alloc", "alloc_bytes", "allocated", "alloc_kb", 1024, 1024, bt.bytes)
method_rule("startup-method-faults", "majflt", "major page faults", "majflt", 20, 1,
  function(n) return commas(n) end)
