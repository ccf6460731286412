-- frames.lua: the main thread's display frames (the ui_frames table), run
-- with the built-in attribution report (and by bt.builtin("frames")).
-- A frame's time is from its doFrame's start to its end (its RenderThread
-- draw's end where the trace has it); janky when it ended after its vsync
-- deadline (`btrace-analyze help rules`, the ui_frames table).
--
--   frames.count, frames.janky, frames.janky_pct, frames.missed_vsyncs
--   frames.period_ns                     the display's refresh period
--   frames.p50_ns / .p90_ns / .p99_ns    frame time percentiles
--
-- and what filled them, for compare to name what grew (the ui_frame_methods
-- and ui_frame_blocking tables), per frame over every frame and per janky
-- frame over the janky ones, so they keep their size whatever the
-- capture's length:
--
--   frames.method.<m>.self_ns, frames.janky.method.<m>.self_ns   an app method's self
--                                                                time not blocked
--   frames.blocked_ns.<kind>, frames.janky.blocked_ns.<kind>     blocked time by kind
--   frames.wait.<kind>.by.<holder>.ns, frames.janky.wait...      by the waits' holder
--
-- and the table "frames": the janky frames, most vsyncs missed first, each
-- with its cause line (the main thread's methods by self time in it, its
-- blocking by kind with the holder of its longest wait).

local KINDS = { "monitor", "wait", "park", "gc", "binder", "loadlibrary", "lock" }
local MIN_NS = 500000   -- methods with less in all the frames are left out (gate.lua's)

-- The per-frame measures of what filled the frames: n frames, of them
-- janky janky ones.
local function filled(n, janky)
  local is_app = bt.app_code()
  for r in bt.rows([[SELECT f.name, u.self_ns, u.janky_self_ns FROM ui_frame_methods u
JOIN frames f ON f.id = u.frame_id WHERE u.self_ns >= ? ORDER BY f.name]], MIN_NS) do
    if is_app(r.name) then
      bt.metric("frames.method." .. r.name .. ".self_ns", r.self_ns / n)
      if janky > 0 and r.janky_self_ns > 0 then
        bt.metric("frames.janky.method." .. r.name .. ".self_ns", r.janky_self_ns / janky)
      end
    end
  end
  if bt.trace().no_waits then return end   -- the trace cannot say
  for _, k in ipairs(KINDS) do
    local b = bt.query("SELECT total(ns) AS ns, total(janky_ns) AS janky FROM ui_frame_blocking WHERE kind = ? AND holder IS NULL", k)[1]
    bt.metric("frames.blocked_ns." .. k, b.ns / n)
    if janky > 0 then bt.metric("frames.janky.blocked_ns." .. k, b.janky / janky) end
  end
  for r in bt.rows("SELECT kind, holder, ns, janky_ns FROM ui_frame_blocking WHERE holder IS NOT NULL ORDER BY kind, holder") do
    bt.metric("frames.wait." .. r.kind .. ".by." .. r.holder .. ".ns", r.ns / n)
    if janky > 0 and r.janky_ns > 0 then
      bt.metric("frames.janky.wait." .. r.kind .. ".by." .. r.holder .. ".ns", r.janky_ns / janky)
    end
  end
end

bt.rule{
  id = "frames",
  severity = "info",
  params = { worst = 20 },   -- janky frames listed
  run = function(p)
    local t = bt.trace()   -- the frames' summary, in meta where they were made
    local function num(k) return tonumber(t["ui_frames" .. k]) end   -- nil: not a number (a hostile database)
    local s = { n = num("") or 0, janky = num("_janky") or 0, missed = num("_missed") or 0,
      period = num("_period_ns") or 0, p50 = num("_p50_ns"), p90 = num("_p90_ns"), p99 = num("_p99_ns") }
    if s.n <= 0 then return end
    bt.metric("frames.count", s.n)
    bt.metric("frames.janky", s.janky)
    bt.metric("frames.janky_pct", 100 * s.janky / s.n)
    bt.metric("frames.missed_vsyncs", s.missed)
    bt.metric("frames.period_ns", s.period)
    for _, q in ipairs({ 50, 90, 99 }) do   -- nearest rank
      if s["p" .. q] then bt.metric("frames.p" .. q .. "_ns", s["p" .. q]) end
    end
    filled(s.n, s.janky)
    -- A frame that began a period or more after its vsync waited for the
    -- main thread: the longest message that ended between them delayed it.
    -- Its cause line names that message ("late 12.0 ms behind X (msg 7)",
    -- engine/startup/late.c finds it), so it is looked up by its id.
    local main = bt.main_tid()
    local function delayed_by(r)
      if r.start_ns < s.period or not main or not r.cause then return nil end
      local id = r.cause:sub(1, 4096):match("late [%d.]+ ms behind .-msg (%d+)")   -- a line is short;
                                                                                   -- a hostile one, not read whole
      local m = id and bt.query("SELECT msg_id, dur FROM messages WHERE tid = ?1 AND msg_id = ?2", main,
                                math.tointeger(tonumber(id)))[1]
      if not m then return nil end
      local top = bt.scalar([[SELECT f.name FROM message_methods mm JOIN frames f ON f.id = mm.frame_id
WHERE mm.tid = ?1 AND mm.msg_id = ?2 AND mm.rank = 1]], main, m.msg_id)
      return string.format("msg %d (%.1f ms%s)", m.msg_id, m.dur / 1e6, top and (": " .. bt.short(top)) or "")
    end
    local rows = {}
    for r in bt.rows([[SELECT id, ts, expected_ts, ts - expected_ts AS start_ns, end_ts - ts AS frame_ns, dur AS main_ns,
missed_vsyncs, end_ts - deadline_ts AS late_ns, cause FROM ui_frames WHERE janky
ORDER BY missed_vsyncs DESC, late_ns DESC, id LIMIT ?]], p.worst) do
      rows[#rows + 1] = { r.id, r.ts, r.start_ns, r.frame_ns, r.main_ns, r.missed_vsyncs, r.late_ns, r.cause,
        delayed_by(r) }
    end
    bt.table{ name = "frames",
      title = string.format("Frames: %d of %d janky (%.1f %%), %.0f vsyncs missed; the worst", s.janky, s.n,
        100 * s.janky / s.n, s.missed),
      columns = { "frame", "ts", "after_vsync_ns", "frame_ns", "main_ns", "missed_vsyncs", "late_ns", "cause",
        "delayed_by" },
      units = { frame = "", ts = "", missed_vsyncs = "count" },
      spare = { "delayed_by" },
      rows = rows }
  end,
}
