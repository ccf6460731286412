-- The rule API: parameters, SQL values, metrics, tables, findings.
bt.rule{
  id = "api",
  severity = "warning",
  params = { threshold_ms = 5, label = "x", strict = false },
  run = function(p)
    bt.metric("api.threshold_ms", p.threshold_ms)
    bt.metric("api.strict", p.strict and 1 or 0)
    local n = bt.scalar("SELECT count(*) FROM samples WHERE tid = ?", bt.main_tid())
    bt.metric("api.main_samples", n)
    bt.metric("api.is_integer", math.type(n) == "integer" and 1 or 0)
    bt.metric("api.half", 0.5)
    local rows = bt.query("SELECT tid, name, is_main FROM threads ORDER BY tid")
    bt.table{ name = "api_threads", columns = { "tid", "name", "is_main" }, rows = rows }
    local longest = bt.query("SELECT tid, ts, dur FROM messages ORDER BY dur DESC LIMIT 1")[1]
    if longest and longest.dur >= p.threshold_ms * 1000000 then
      bt.finding{ message = p.label .. ": long message", tid = longest.tid, ts = longest.ts,
        dur = longest.dur, evidence = { dur_ns = longest.dur, list = { 1, 2, 3 }, nested = { a = "b" } } }
    end
    local k = 0
    for _ in bt.rows("SELECT id FROM samples") do k = k + 1; if k == 3 then break end end
    bt.metric("api.rows_break", k)
  end,
}
bt.metric("api.top_level", bt.param("top_level", 7))
