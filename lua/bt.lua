-- bt.lua: the Lua half of the rule API, loaded into every rule sandbox
-- before the rule file. The C half (lua/api.c, lua/api_sql.c) provides
-- bt.query, bt.rows, bt.scalar, bt.finding, bt.metric, bt.table, bt.param
-- and bt.builtin. 'btrace-analyze help rules' documents all of it.
local bt = ...

local rules = {}

-- bt.rule{id=, severity=, params={name=default}, run=function(p) end}
function bt.rule(def)
  if type(def) ~= "table" then error("bt.rule expects a table", 2) end
  if type(def.id) ~= "string" or def.id == "" then
    error("bt.rule: id must be a non-empty string", 2)
  end
  if type(def.run) ~= "function" then error("bt.rule: run must be a function", 2) end
  local sev = def.severity
  if sev ~= nil and sev ~= "info" and sev ~= "warning" and sev ~= "error" then
    error("bt.rule: severity must be info, warning or error", 2)
  end
  if def.params ~= nil and type(def.params) ~= "table" then
    error("bt.rule: params must be a table of defaults", 2)
  end
  for _, r in ipairs(rules) do
    if r.id == def.id then error("bt.rule: duplicate id '" .. def.id .. "'", 2) end
  end
  rules[#rules + 1] = def
end

-- The main thread of the process --set scope.process=NAME names in a
-- capture of several (its whole name, its ":suffix" or its pid), for every
-- rule that asks bt.main_tid(); an error naming the processes when none is.
local function scoped_main(process)
  local tid = bt.scalar([[SELECT main_tid FROM processes WHERE CAST(pid AS TEXT) = ?1 OR name = ?1
OR (substr(?1, 1, 1) = ':' AND substr(name, -length(?1)) = ?1) ORDER BY is_lead DESC, pid LIMIT 1]], process)
  if tid then return tid end
  local names = {}
  for r in bt.rows("SELECT pid, name FROM processes ORDER BY is_lead DESC, pid") do
    names[#names + 1] = string.format("%s (pid %d)", r.name or "?", r.pid)
  end
  error(string.format("--set scope.process=%s: no such process in this trace (it has %s)", process,
    #names > 0 and table.concat(names, ", ") or "none"), 0)
end

-- Facts about the trace, from meta (cheap) and the threads table.
local facts
function bt.trace()
  if facts then return facts end
  facts = {}
  for row in bt.rows("SELECT key, value FROM meta") do facts[row.key] = row.value end
  local scope = bt.param("scope.process", "")
  facts.main_tid = scope ~= "" and scoped_main(scope) or
    bt.scalar("SELECT tid FROM threads WHERE is_main ORDER BY tid LIMIT 1")
  return facts
end

function bt.main_tid()
  return bt.trace().main_tid
end

local thread_names
function bt.thread_name(tid)
  if not thread_names then
    thread_names = {}
    for row in bt.rows("SELECT tid, name FROM threads") do
      thread_names[row.tid] = row.name
    end
  end
  return thread_names[tid] or ("tid " .. tostring(tid))
end

local frame_names = {}
function bt.frame_name(id)
  if id == nil then return nil end
  local n = frame_names[id]
  if n == nil then
    n = bt.scalar("SELECT name FROM frames WHERE id = ?", id) or ("frame " .. tostring(id))
    frame_names[id] = n
  end
  return n
end

-- Query helpers over the tables of DESIGN §4; each takes an options
-- table and returns an iterator of rows.
local function where(opts, cols)
  local sql, args = {}, {}
  for _, c in ipairs(cols) do
    local v = opts[c[1]]
    if v ~= nil then
      sql[#sql + 1] = c[2]
      args[#args + 1] = v
    end
  end
  return (#sql > 0 and (" WHERE " .. table.concat(sql, " AND ")) or ""), args
end

local function limit(opts)
  if opts.limit then return " LIMIT " .. math.tointeger(opts.limit) end
  return ""
end

-- bt.slices{tid=, frame=, from=, to=, min_dur=, limit=}: slices in time order.
function bt.slices(opts)
  opts = opts or {}
  local w, args = where(opts, {
    { "tid", "tid = ?" }, { "frame", "frame_id = ?" }, { "from", "ts + dur > ?" },
    { "to", "ts < ?" }, { "min_dur", "dur >= ?" } })
  return bt.rows("SELECT * FROM slices" .. w .. " ORDER BY tid, ts, depth" .. limit(opts),
    table.unpack(args))
end

-- bt.messages{tid=, min_dur=, limit=}: Looper messages, longest first.
function bt.messages(opts)
  opts = opts or {}
  local w, args = where(opts, { { "tid", "tid = ?" }, { "min_dur", "dur >= ?" } })
  return bt.rows("SELECT * FROM messages" .. w .. " ORDER BY dur DESC, tid, msg_id" .. limit(opts),
    table.unpack(args))
end

-- bt.edges{tid=, kind=, min_dur=, limit=}: waits and who ended them,
-- with the waiter's and waker's innermost frames, in time order.
function bt.edges(opts)
  opts = opts or {}
  local w, args = where(opts, {
    { "tid", "e.waiter_tid = ?" }, { "kind", "e.kind = ?" }, { "min_dur", "e.dur >= ?" } })
  return bt.rows([[
SELECT e.*, wn.frame_id AS waiter_frame_id, kn.frame_id AS waker_frame_id
FROM blocking_edges e
LEFT JOIN samples s ON s.id = e.waiter_sample_id
LEFT JOIN nodes wn ON wn.id = coalesce(s.node_id, e.waiter_node_id)
LEFT JOIN nodes kn ON kn.id = e.waker_node_id]] .. w .. " ORDER BY e.ts, e.id" .. limit(opts),
    table.unpack(args))
end

-- bt.methods{tid=, order=column, limit=}: per-method attribution rows,
-- with the frame's name, most first by order (default incl_ns).
function bt.methods(opts)
  opts = opts or {}
  local order = opts.order or "incl_ns"
  if not order:match("^[%w_]+$") then error("bt.methods: bad order column", 2) end
  local w, args = where(opts, { { "tid", "m.tid = ?" } })
  return bt.rows("SELECT m.*, f.name FROM methods m JOIN frames f ON f.id = m.frame_id" .. w ..
    " ORDER BY m." .. order .. " DESC, f.name" .. limit(opts), table.unpack(args))
end

-- bt.startup(): the app start (table startup) with its phases (in time
-- order, each with its main-thread breakdown, its top ten methods by self CPU and
-- its blocked time by kind), or nil when the trace shows no start. The
-- window is startup.ts to startup.end_ts (nil when no first frame).
function bt.startup()
  local s = bt.query("SELECT * FROM startup LIMIT 1")[1]
  if not s then return nil end
  s.phases, s.phase = {}, {}
  for p in bt.rows("SELECT * FROM startup_phases ORDER BY ts, phase") do
    p.methods = bt.query([[SELECT m.rank, m.frame_id, m.self_cpu_ns, m.self_ns, f.name
FROM startup_methods m JOIN frames f ON f.id = m.frame_id WHERE m.phase = ? AND m.rank <= 10 ORDER BY m.rank]], p.phase)
    p.blocking = bt.query("SELECT kind, count, dur FROM startup_blocking WHERE phase = ? ORDER BY dur DESC, kind",
      p.phase)
    s.phases[#s.phases + 1] = p
    s.phase[p.phase] = p
  end
  return s
end

-- bt.app_code(): a function(name) that says whether a method is the
-- app's: in the start's package, else in the process's (a package-like
-- name), else outside the platform's packages (bt.is_app).
function bt.app_code()
  local pkg = bt.scalar("SELECT package FROM startup LIMIT 1") or
    bt.scalar("SELECT value FROM meta WHERE key = 'process_name'")
  if not (pkg and pkg:find("^[%w_]+%.[%w_.]+$")) then pkg = nil end
  return function(name) return bt.is_app(name, pkg) end
end

-- bt.chain(edge_id): the wait chain behind a main-thread wait (table
-- wait_chain): its hops in order (1: the waker over the wait; n+1: the
-- thread that ended hop n's own blocking, where a record names it), each
-- with its top methods by overlap ({rank=, frame_id=, name=, overlap_ns=}).
-- An empty list when the wait has no waker.
function bt.chain(edge_id)
  local id = math.tointeger(edge_id)
  if id == nil then error("bt.chain: edge_id must be an integer", 2) end
  local hops = bt.query("SELECT * FROM wait_chain WHERE edge_id = ? ORDER BY hop", id)
  for _, h in ipairs(hops) do
    h.methods = bt.query([[
SELECT m.rank, m.frame_id, f.name, m.overlap_ns FROM wait_chain_methods m
JOIN frames f ON f.id = m.frame_id WHERE m.edge_id = ? AND m.hop = ? ORDER BY m.rank]], id, h.hop)
  end
  return hops
end

-- Formatting for messages.
-- A duration as people read it, as the reports print one: "387.5 ms",
-- "12.35 s", "5 min 31.6 s", "2 h 05 min".
function bt.ms(ns)
  ns = ns or 0
  local a, sign = math.abs(ns), ns < 0 and "-" or ""
  if a < 1e9 then return string.format("%.1f ms", ns / 1e6) end
  if a < 60e9 then return string.format("%.2f s", ns / 1e9) end
  if a < 3600e9 then
    local m = a // 60e9
    return string.format("%s%d min %.1f s", sign, m, (a - m * 60e9) / 1e9)
  end
  local h = a // 3600e9
  return string.format("%s%d h %02d min", sign, h, (a - h * 3600e9) // 60e9)
end

function bt.bytes(n)
  n = n or 0
  if n >= 1 << 30 then return string.format("%.1f GiB", n / (1 << 30)) end
  if n >= 1 << 20 then return string.format("%.1f MiB", n / (1 << 20)) end
  if n >= 1 << 10 then return string.format("%.1f KiB", n / (1 << 10)) end
  return string.format("%d B", n)
end

return rules
