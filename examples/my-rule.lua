-- my-rule.lua: a rule file of one's own, to copy from (help rules lists
-- the API; lua/attribution.lua and examples/startup.lua are larger ones).
-- Every main-thread Looper message of at least threshold_ms is a warning,
-- named by the method that took most of its time:
--   btrace-analyze examples/sampling.bin --rules examples/my-rule.lua \
--     --set my-rule.threshold_ms=20 --fail-on warning
bt.rule{
  id = "my-rule",
  severity = "warning",
  params = { threshold_ms = 10 },
  run = function(p)
    local main = bt.main_tid()
    for m in bt.messages{ tid = main, min_dur = p.threshold_ms * 1e6 } do
      local top = bt.scalar([[SELECT frame_id FROM message_methods
                              WHERE tid = ? AND msg_id = ? ORDER BY self_ns DESC LIMIT 1]],
                            main, m.msg_id)
      bt.finding{
        severity = "warning", tid = main, ts = m.ts, dur = m.dur,
        message = string.format("message %d ran %s%s", m.msg_id, bt.ms(m.dur),
                                top and (", mostly in " .. bt.short(bt.frame_name(top))) or ""),
      }
    end
    bt.metric("my-rule.long_messages", bt.scalar(
      "SELECT count(*) FROM messages WHERE tid = ? AND dur >= ?", main, p.threshold_ms * 1e6))
  end,
}
