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
-- and the table "frames": the janky frames, most vsyncs missed first, each
-- with its cause line (the main thread's methods by self time in it, its
-- blocking by kind with the holder of its longest wait).

bt.rule{
  id = "frames",
  severity = "info",
  params = { worst = 20 },   -- janky frames listed
  run = function(p)
    local s = bt.query([[SELECT count(*) AS n, total(janky) AS janky, total(missed_vsyncs) AS missed,
max(period_ns) AS period FROM ui_frames]])[1]
    if not s or s.n == 0 then return end
    bt.metric("frames.count", s.n)
    bt.metric("frames.janky", s.janky)
    bt.metric("frames.janky_pct", 100 * s.janky / s.n)
    bt.metric("frames.missed_vsyncs", s.missed)
    bt.metric("frames.period_ns", s.period)
    local times = {}
    for r in bt.rows("SELECT end_ts - ts AS t FROM ui_frames ORDER BY t") do times[#times + 1] = r.t end
    for _, q in ipairs({ 50, 90, 99 }) do   -- nearest rank
      bt.metric("frames.p" .. q .. "_ns", times[math.max(1, math.ceil(#times * q / 100))])
    end
    -- A frame that began a period or more after its vsync waited for the
    -- main thread: the longest message that ran between them delayed it.
    local main = bt.main_tid()
    local function delayed_by(r)
      if r.start_ns < s.period or not main then return nil end
      local m = bt.query([[SELECT msg_id, dur FROM messages WHERE tid = ?1 AND ts + dur > ?2 AND ts + dur <= ?3 + 200000
ORDER BY dur DESC LIMIT 1]], main, r.expected_ts, r.ts)[1]
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
