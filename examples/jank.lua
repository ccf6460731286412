-- jank.lua: rules for a scrolling or animation review: the frames that
-- missed their vsync, grouped by what filled them.
--
--   btrace-analyze sampling.bin --rules examples/jank.lua
--   btrace-analyze trace.perfetto-trace --rules examples/jank.lua --set missed=2
--
-- Built on the engine's display frames (table ui_frames: each main-thread
-- frame, its vsync deadline, whether it missed it and by how many vsyncs,
-- and a janky frame's cause line: its methods by self time, its blocking
-- by kind with the holder of its longest wait). A janky frame's cause is
-- its line's first part: the method or the kind of blocking that filled
-- it most. One finding per cause, most vsyncs missed first, with its
-- frames' count and the worst of them; then one per frame that missed at
-- least `missed` vsyncs. The attribution report runs first.

bt.builtin("attribution")

-- The first part of a cause line: "FeedAdapter.bind(...) 18.0 ms, ..." ->
-- "FeedAdapter.bind(...)", "gc 24.2 ms" -> "gc".
local function first_cause(line)
  if not line or line == "" then return "(nothing over 1 ms)" end
  return (line:match("^(.-) [%d.]+ ms") or line)
end

bt.rule{
  id = "jank-by-cause",
  severity = "warning",
  params = { causes = 10 },   -- causes listed
  run = function(p)
    local by, order = {}, {}
    for r in bt.rows([[SELECT id, ts, end_ts - ts AS dur, missed_vsyncs, cause FROM ui_frames
WHERE janky ORDER BY id]]) do
      local k = first_cause(r.cause)
      local g = by[k]
      if not g then
        g = { cause = k, frames = 0, missed = 0 }
        by[k] = g
        order[#order + 1] = g
      end
      g.frames = g.frames + 1
      g.missed = g.missed + r.missed_vsyncs
      if not g.worst or r.missed_vsyncs > g.worst.missed_vsyncs then g.worst = r end
    end
    table.sort(order, function(a, b)
      if a.missed ~= b.missed then return a.missed > b.missed end
      return a.cause < b.cause
    end)
    for i = 1, math.min(#order, p.causes) do
      local g = order[i]
      bt.finding{ tid = bt.main_tid(), ts = g.worst.ts, dur = g.worst.dur,
        message = string.format("%s filled %d janky frame%s (%d vsyncs missed); the worst, frame %d: %s",
          g.cause, g.frames, g.frames == 1 and "" or "s", g.missed, g.worst.id, g.worst.cause or ""),
        evidence = { cause = g.cause, frames = g.frames, missed_vsyncs = g.missed, worst_frame = g.worst.id } }
    end
  end,
}

bt.rule{
  id = "frame-over-budget",
  severity = "warning",
  params = { missed = 3 },   -- vsyncs a frame may miss before it is listed
  run = function(p)
    for r in bt.rows([[SELECT id, ts, end_ts - ts AS dur, missed_vsyncs, cause FROM ui_frames
WHERE missed_vsyncs >= ? ORDER BY missed_vsyncs DESC, id]], p.missed) do
      bt.finding{ tid = bt.main_tid(), ts = r.ts, dur = r.dur,
        message = string.format("frame %d: %s, %d vsyncs missed: %s", r.id, bt.ms(r.dur), r.missed_vsyncs,
          r.cause or ""),
        evidence = { frame = r.id, missed_vsyncs = r.missed_vsyncs } }
    end
  end,
}
