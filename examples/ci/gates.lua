-- gates.lua: the regression gate for the app-startup scenario, for
-- `btrace-analyze compare --base ... --head ... --rules gates.lua`.
-- Declarations apply in order to the metrics their glob matches, later
-- ones winning; see `btrace-analyze help compare`.

-- Everyone's default: a 5 % move of the median, and more than the noise
-- of the clock (2 ms), of the allocator (256 KiB) or one event, with
-- p < 0.01 family-wise (one test over every gated metric: a same build
-- fails this gate at most 1 time in 100).
gate.defaults{ max_regress = "5%", noise_floor = { "2ms", "256KB", "1" }, alpha = 0.01 }

-- Facts about the capture, not costs.
gate.metric("trace.*", { gate = false })
gate.metric("process.threads", { gate = false })
gate.metric("thread.main.messages", { gate = false })

-- Blocked time depends on the other threads' timing: it moves more from
-- run to run than CPU time does.
gate.metric("startup.main.blocked_ns.*", { max_regress = "10%" })
gate.metric("thread.main.wait.*", { max_regress = "10%" })

-- What the team answers for (from examples/startup.lua): time to first frame.
gate.metric("startup.ttid_ns", { max_regress = "3%", noise_floor = "5ms" })
gate.metric("startup.duration_ns", { gate = true, max_regress = "3%", noise_floor = "5ms" })
gate.metric("startup.first_frame_found", { gate = true, higher_is_better = true })

-- A new ANR candidate fails the gate however the statistics read: every
-- head run has a message over 100 ms where no base run had one.
gate.metric("thread.main.messages.over_100ms", { gate = true })
gate.check(function(m)
  if m.name == "thread.main.messages.over_100ms" and m.base.max == 0 and m.head.min > 0 then
    return "regressed", "every head run has a message over 100 ms; no base run had one"
  end
end)
