-- gate.lua: the measures compare gates by default (see `btrace-analyze help
-- compare`), run with the built-in attribution report. They stay the same
-- size whatever the trace's length: the startup window, the main thread's
-- Looper messages (totals compare scales to the median run's number of
-- messages), or per wait. Causes (".by." metrics) are not gated: compare
-- ranks them to explain a gated move.
--
--   startup.ttid_ns, startup.main.cpu_ns, startup.main.blocked_ns.<kind>
--   startup.phase.<phase>.dur_ns                            each phase of the start
--   startup.process.cpu_ns / .offcpu_ns                     every thread in the start window
--   startup.main.method.<method>.self_cpu_ns / .self_ns / .incl_ns   app methods, idle out
--   startup.main.wait.<kind>.by.<holder>.ns                 blocked time per holder
--   startup.main.sample_interval_ns                         how finely the samples place a
--                                                           method's bounds: compare's floor
--                                                           for the main thread's methods
--   thread.main.msgs.count, .wall_ns / .cpu_ns / .alloc_bytes   messages after the start
--   thread.main.msgs.method.<method>.self_cpu_ns / .self_ns   app methods in them
--   thread.main.first.<N>.msgs.*, .wait.*, .per_s.*          the message and wait measures
--                                                           over the thread's first N messages
--                                                           (the three largest powers of two
--                                                           it has): compare reads the largest
--                                                           N every run has in their place, so
--                                                           runs of other lengths compare the
--                                                           same messages
--   thread.main.wait.<kind>.mean_ns                         mean length of a wait
--   thread.main.per_s.blocked_ns.<kind>                     blocked per second of the thread
--   thread.main.wait.<kind>.by.<holder>.ns                  its share of that mean
--
-- A method is the app's (in the start's package, else the process's), or
-- a library's (outside the platform's packages and the app's), which
-- also gets
--   caller.<library method>.from.<app method>.ns            its inclusive time under the
--                                                           app method calling it most
-- so that compare names a slower library call with the app code that
-- made it (not gated: the name's evidence).
--
-- A holder is the innermost app frame (bt_app_node: outside the platform's
-- packages) on the stack of the thread that ended the wait (the lock's
-- holder, the notifier, the binder thread that served a call), else its
-- innermost frame; " in PROCESS" follows it when that thread is another
-- process's (a capture of several: "TokenStore.load in ample.feed:push").
--
-- In a capture of several processes the measures are the lead process's
-- main thread's, or the one bt.main_tid() is scoped to (compare --process
-- NAME: --set scope.process=NAME).

local KINDS = { "monitor", "wait", "park", "gc", "binder", "loadlibrary", "lock" }
local MIN_NS = 500000   -- methods under this (half the default noise floor) are left out

-- The holders of the main thread's waits, by waker node: each one's
-- innermost app frame (bt_app_node), as the waits table and the startup
-- findings name it; one query for them all.
local function holder_of(main)
  local name = {}
  for r in bt.rows([[SELECT DISTINCT e.waker_node_id AS node, f.name, p.name AS process FROM blocking_edges e
JOIN nodes n ON n.id = bt_app_node(e.waker_node_id) JOIN frames f ON f.id = n.frame_id
LEFT JOIN threads k ON k.tid = e.waker_tid LEFT JOIN threads w ON w.tid = e.waiter_tid
LEFT JOIN processes p ON p.pid = k.pid AND k.pid IS NOT w.pid
WHERE e.waiter_tid = ? AND e.waker_node_id IS NOT NULL]], main) do
    name[r.node] = r.process and (r.name .. " in " .. r.process) or r.name
  end
  return function(node)
    return node and name[node] or "(unknown)"
  end
end

-- Whether a main-thread method is measured (see above): the app's (is_app
-- says which those are) and the libraries' code, not the platform's.
-- Each library method's top caller is written once (caller.*).
local function measured_method(main, is_app)
  local up, memo = {}, {}
  local function parent(id)   -- a call path's parent and its frame's name
    local r = up[id]
    if r == nil then
      r = bt.query([[SELECT c.parent_id AS p, f.name FROM calltree c JOIN frames f ON f.id = c.frame_id
WHERE c.id = ?]], id)[1] or false
      up[id] = r
    end
    return r
  end
  local function caller(frame_id)   -- the app method calling it most and its time there, or false
    local by, best = {}, false
    for c in bt.rows([[SELECT parent_id, incl_ns FROM calltree WHERE tid = ? AND frame_id = ?
ORDER BY incl_ns DESC LIMIT 64]], main, frame_id) do
      local id, seen = c.parent_id, 0
      while id and seen < 256 do   -- bounded: a path is at most as deep as a stack
        local r = parent(id)
        if not r then break end
        if is_app(r.name) then by[r.name] = (by[r.name] or 0) + c.incl_ns; break end
        id, seen = r.p, seen + 1
      end
    end
    for name, ns in pairs(by) do
      if not best or ns > by[best] or (ns == by[best] and name < best) then best = name end
    end
    return best and { best, by[best] }
  end
  return function(name, frame_id)
    if is_app(name) then return true end
    -- the platform's, or a frame of no package (the runtime's synthetic ones)
    if not frame_id or not bt.is_app(name) or not name:find("[%w_$]%.[%w_$]+%.[^.(]+%(") then return false end
    if memo[frame_id] == nil then
      local from = caller(frame_id)
      memo[frame_id] = from
      if from then bt.metric("caller." .. name .. ".from." .. from[1] .. ".ns", from[2]) end
    end
    return true
  end
end

-- Every thread's CPU and off-CPU time in the start window: per thread
-- from its first to its last record there (its cumulative CPU clock), so
-- threads that sleep through the start add nothing. None when the trace
-- has no CPU times. A waker record (kUnpark, kNotify, kUnlock) is the
-- waker's at its end: its begin is the waiter's time and its begin CPU
-- unknown (NULL; 0 in databases written before, which counted each
-- worker's CPU before the trace: 926.7 ms of a 825.7 ms trace). The
-- records that begin in the window, and the waker records (records with
-- an end, which the samples' scan takes alone): not a scan of them all.
local function process_window(a, b)
  local r = bt.query([[WITH own AS (
  SELECT tid, ts AS t, coalesce(end_ts, ts) AS te, cpu_ns AS c, coalesce(end_cpu_ns, cpu_ns) AS ce FROM samples
  WHERE ts >= ?1 AND ts <= ?2
    AND NOT coalesce(type IN (17, 22, 23) AND coalesce(cpu_ns, 0) = 0 AND end_ts IS NOT NULL, 0)
  UNION ALL
  SELECT tid, end_ts, end_ts, end_cpu_ns, coalesce(end_cpu_ns, cpu_ns) FROM samples
  WHERE end_ts IS NOT NULL AND type IN (17, 22, 23) AND coalesce(cpu_ns, 0) = 0)
SELECT count(*) AS n, total(c1 - c0) AS cpu, total((t1 - t0) - (c1 - c0)) AS off FROM
  (SELECT min(t) AS t0, max(te) AS t1, min(c) AS c0, max(ce) AS c1 FROM own
   WHERE t >= ?1 AND t <= ?2 AND c IS NOT NULL GROUP BY tid)]], a, b)[1]
  if not r or r.n == 0 then return end
  bt.metric("startup.process.cpu_ns", r.cpu)
  bt.metric("startup.process.offcpu_ns", math.max(0, r.off))
end

local function startup_window(main, measured, holder)
  local s = bt.query("SELECT * FROM startup WHERE end_ts IS NOT NULL LIMIT 1")[1]
  if not s or s.tid ~= main then return end
  bt.metric("startup.ttid_ns", s.ttid_ns)
  if s.sample_interval_ns then bt.metric("startup.main.sample_interval_ns", s.sample_interval_ns) end
  local cpu = bt.scalar("SELECT cpu_ns FROM startup_phases WHERE phase = 'startup'")
  if cpu then bt.metric("startup.main.cpu_ns", cpu) end
  -- the main thread's scheduler states in the window, where the trace has them
  local st = bt.query([[SELECT runnable_ns, sleeping_ns, io_ns, uninterruptible_ns FROM startup_phases
WHERE phase = 'startup' AND runnable_ns IS NOT NULL]])[1]
  if st then
    for _, k in ipairs({ "runnable_ns", "sleeping_ns", "io_ns", "uninterruptible_ns" }) do
      bt.metric("startup.main." .. k, st[k])
    end
  end
  for p in bt.rows("SELECT phase, dur FROM startup_phases WHERE phase <> 'startup' ORDER BY ts, phase") do
    bt.metric("startup.phase." .. p.phase .. ".dur_ns", p.dur)
  end
  process_window(s.ts, s.end_ts)
  for _, k in ipairs(bt.trace().no_waits and {} or KINDS) do   -- none: the trace cannot say
    bt.metric("startup.main.blocked_ns." .. k,
      bt.scalar("SELECT dur FROM startup_blocking WHERE phase = 'startup' AND kind = ?", k) or 0)
  end
  for r in bt.rows([[SELECT f.name, m.frame_id, m.self_cpu_ns, m.self_ns, m.incl_ns FROM startup_methods m
JOIN frames f ON f.id = m.frame_id
WHERE m.phase = 'startup' AND (m.self_cpu_ns >= ?1 OR m.self_ns >= ?1 OR m.incl_ns >= ?1) ORDER BY m.rank]], MIN_NS) do
    if measured(r.name, r.frame_id) then
      local pre = "startup.main.method." .. r.name
      if r.self_cpu_ns then bt.metric(pre .. ".self_cpu_ns", r.self_cpu_ns) end   -- nil: not in the trace
      bt.metric(pre .. ".self_ns", r.self_ns)
      bt.metric(pre .. ".incl_ns", r.incl_ns or 0)
    end
  end
  local by = {}
  for e in bt.rows([[SELECT kind, waker_node_id, min(ts + dur, ?2) - max(ts, ?1) AS ns FROM blocking_edges
WHERE waiter_tid = ?3 AND ts < ?2 AND ts + dur > ?1]], s.ts, s.end_ts, main) do
    local key = e.kind .. ".by." .. holder(e.waker_node_id)
    by[key] = (by[key] or 0) + e.ns
  end
  for key, ns in pairs(by) do bt.metric("startup.main.wait." .. key .. ".ns", ns) end
  return s.end_ts
end

-- Messages' measures under pre ("thread.main.msgs" or a window's): m
-- their totals with their count, methods the app's and libraries' methods'
-- self time in them (rows of name, frame_id, cpu, wall).
local function message_measures(pre, m, methods, measured)
  bt.metric(pre .. ".count", m.n)
  bt.metric(pre .. ".wall_ns", m.wall)
  if m.cpu then bt.metric(pre .. ".cpu_ns", m.cpu) end   -- nil: CPU time not in the trace
  bt.metric(pre .. ".alloc_bytes", m.alloc)
  for r in methods do
    if ((r.cpu or 0) >= MIN_NS or r.wall >= MIN_NS) and measured(r.name, r.frame_id) then
      if r.cpu then bt.metric(pre .. ".method." .. r.name .. ".self_cpu_ns", r.cpu) end
      bt.metric(pre .. ".method." .. r.name .. ".self_ns", r.wall)
    end
  end
end

-- The messages after the start (all of them without one): the start has
-- its own measures, and its messages are not like the rest. Totals, with
-- their count: compare reads them as over the median run's number of
-- messages, so a longer capture does not read as a slower app.
local function messages(main, measured, after)
  local m = bt.query([[SELECT count(*) AS n, total(dur - idle_dur) AS wall,
  CASE WHEN count(cpu_dur) = count(*) THEN total(cpu_dur) END AS cpu,
  total(alloc_bytes) AS alloc FROM messages WHERE tid = ? AND ts >= ?]], main, after)[1]
  if not m or m.n == 0 then return end
  -- the thread's method totals less the start's
  message_measures("thread.main.msgs", m, bt.rows([[SELECT f.name, m.frame_id, m.self_cpu_ns - coalesce(s.self_cpu_ns, 0) AS cpu,
  m.self_ns - coalesce(s.self_ns, 0) AS wall FROM methods m JOIN frames f ON f.id = m.frame_id
LEFT JOIN startup_methods s ON s.phase = 'startup' AND s.frame_id = m.frame_id AND ? > 0
WHERE m.tid = ?]], after, main), measured)
end

-- The main thread's waits (from, upto: those beginning in that span, and
-- its length for per_s; all of them and the thread's wall time without),
-- named from pre ("thread.main." or a window's).
local function waits(main, holder, pre, from, upto)
  local count, total, by = {}, {}, {}
  local rows = from and bt.rows([[SELECT kind, dur, waker_node_id FROM blocking_edges
WHERE waiter_tid = ? AND ts >= ? AND ts < ?]], main, from, upto) or
    bt.rows("SELECT kind, dur, waker_node_id FROM blocking_edges WHERE waiter_tid = ?", main)
  for e in rows do
    count[e.kind] = (count[e.kind] or 0) + 1
    total[e.kind] = (total[e.kind] or 0) + e.dur
    local key = e.kind .. ".by." .. holder(e.waker_node_id)
    by[key] = (by[key] or 0) + e.dur
  end
  for k, n in pairs(count) do bt.metric(pre .. "wait." .. k .. ".mean_ns", total[k] / n) end
  -- how much of its time the thread spends in each kind of wait: more
  -- waits of the same length show here (and a trace without messages
  -- has nothing else)
  local wall = from and upto - from or bt.scalar("SELECT wall_dur FROM threads WHERE tid = ?", main)
  if wall and wall > 0 and not bt.trace().no_waits then
    for _, k in ipairs(KINDS) do
      bt.metric(pre .. "per_s.blocked_ns." .. k, (total[k] or 0) * 1e9 / wall)
    end
  end
  for key, ns in pairs(by) do
    local k = key:match("^(.-)%.by%.")
    bt.metric(pre .. "wait." .. key .. ".ns", ns / count[k])
  end
end

-- The thread's first N messages (window_methods' N: the three largest
-- powers of two it has): a longer capture of the same build holds later
-- messages, another mix of them and warmer caches, which no scaling by
-- their number undoes.
local function windows(main, measured, holder)
  -- where ids run in time order (meta messages_in_id_order), the first N
  -- are the key's range: no sort of all the thread's messages
  local order = tonumber(bt.trace().messages_in_id_order) == 1 and "msg_id" or "ts"
  for w in bt.rows("SELECT DISTINCT messages FROM window_methods WHERE tid = ? ORDER BY messages", main) do
    local first = "thread.main.first." .. w.messages .. "."
    local m = bt.query([[SELECT count(*) AS n, total(dur - idle_dur) AS wall,
  CASE WHEN count(cpu_dur) = count(*) THEN total(cpu_dur) END AS cpu, total(alloc_bytes) AS alloc,
  min(ts) AS b, max(ts + dur) AS e FROM (SELECT * FROM messages WHERE tid = ? ORDER BY ]] .. order .. [[ LIMIT ?)]],
      main, w.messages)[1]
    waits(main, holder, first, m.b, m.e)
    message_measures(first .. "msgs", m, bt.rows([[SELECT f.name, w.frame_id, w.self_ns AS wall, w.self_cpu_ns AS cpu
FROM window_methods w JOIN frames f ON f.id = w.frame_id WHERE w.tid = ? AND w.messages = ?]], main, w.messages), measured)
  end
end

bt.rule{
  id = "gate-measures",
  severity = "info",
  run = function()
    local main = bt.main_tid()
    if not main then return end
    local measured = measured_method(main, bt.app_code())   -- the start's package, else the process's, else bt.is_app
    local holder = holder_of(main)
    local after = startup_window(main, measured, holder) or 0
    messages(main, measured, after)
    windows(main, measured, holder)
    waits(main, holder, "thread.main.")
  end,
}
