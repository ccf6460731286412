-- attribution.lua: the built-in attribution report, run when no --rules
-- is given (and by bt.builtin("attribution")). Where the time, the
-- blocking, the allocations and the page faults went, per thread and per
-- method, from the engine's attribution tables (calltree, methods,
-- method_blocking, callers, message_methods). Copy it to change it.
--
-- Units follow the column names: *_ns nanoseconds, *_bytes bytes, *_pct
-- percent. Off-CPU = wall - CPU; unexplained = off-CPU not covered by a
-- blocking record (runnable, I/O that is not hooked...).
--
-- CPU time a trace does not give (bt.trace().cpu_unknown "all" or
-- "some": the threads it is not known for) is nil, never 0: in the rows (NULL in the attribution
-- tables), in what is worked out from it (off-CPU, unexplained) and in
-- the metrics, which are then left out. Tables of counters a trace does
-- not record (bt.trace().no_alloc, no_faults, no_csw) are left out. So
-- are blocked and idle time of a trace that cannot say when its threads
-- waited or idled (no_waits, no_idle: slices that came with the trace,
-- without blocking records, scheduler states or Looper messages): nil.

-- The measures compare gates by default come with the report.
bt.builtin("gate")
bt.builtin("frames")   -- the main thread's display frames, where the trace has them

local KINDS = { "monitor", "wait", "park", "gc", "binder", "loadlibrary", "lock" }

bt.rule{
  id = "attribution",
  severity = "info",
  params = {
    top = 25,              -- rows of the per-method tables
    threads = 200,         -- rows of the threads table (most wall time first; the main thread always)
    processes = 25,        -- rows of the processes table (several processes: the lead, then most CPU and slices)
    tree_min_pct = 1.0,    -- call-tree nodes below this share of the thread are left out
    messages = 20,         -- longest main-thread messages listed
    method_metric_pct = 0.1, -- method.* metrics for methods above this share (of wall, CPU, allocations or faults)
  },
  run = function(p)
    local main = bt.main_tid()
    local name = bt.thread_name
    local facts = bt.trace()
    local no_waits, no_idle = facts.no_waits, facts.no_idle

    -- Threads: totals are the sums of the methods' self values; wall time
    -- includes idle time (a thread waiting for work), no method's. The
    -- table lists the p.threads threads with most wall time and the main
    -- thread (a system trace may hold 200k threads); the process's totals
    -- count every thread.
    local function minus(a, b) if a == nil or b == nil then return nil end return a - b end
    local function metric(n, v) if v ~= nil then bt.metric(n, v) end end
    local SUMS = [[CAST(total(self_ns + self_idle_ns) AS INTEGER) AS wall_ns,
       CASE WHEN count(self_cpu_ns) = count(*) THEN CAST(total(self_cpu_ns) AS INTEGER) END AS cpu_ns,
       CAST(total(self_idle_ns) AS INTEGER) AS idle_ns,
       CAST(total(self_blocked_ns) AS INTEGER) AS blocked_ns, CAST(total(self_alloc_bytes) AS INTEGER) AS alloc_bytes,
       CAST(total(self_alloc_objects) AS INTEGER) AS alloc_objects, CAST(total(self_majflt) AS INTEGER) AS majflt,
       CAST(total(self_nvcsw) AS INTEGER) AS nvcsw, CAST(total(self_nivcsw) AS INTEGER) AS nivcsw]]
    local all = bt.query("SELECT count(DISTINCT tid) AS threads, " .. SUMS .. " FROM methods")[1]
    -- In a capture of several processes (dumps imported together, a system
    -- trace with --process all) the process.* and method.* metrics are the
    -- process in scope's: the lead (the app's main process), or the one
    -- --set scope.process names. The tables list every thread.
    local nprocs = bt.scalar("SELECT count(*) FROM processes") or 0
    local scope_pid = nprocs > 1 and main and bt.scalar("SELECT pid FROM threads WHERE tid = ?", main) or nil
    local in_scope = scope_pid and
      string.format("tid IN (SELECT tid FROM threads WHERE pid = %d)", math.tointeger(scope_pid)) or nil
    local own = in_scope and
      bt.query("SELECT count(DISTINCT tid) AS threads, " .. SUMS .. " FROM methods WHERE " .. in_scope)[1] or all
    local scoped   -- tid -> true: the process in scope's threads (nil: every thread)
    if in_scope then
      scoped = {}
      for r in bt.rows("SELECT tid FROM threads WHERE " .. in_scope) do scoped[r.tid] = true end
    end
    local process = {}
    for _, k in ipairs({ "wall_ns", "cpu_ns", "blocked_ns", "idle_ns", "alloc_bytes", "alloc_objects", "majflt",
        "nvcsw", "nivcsw" }) do process[k] = own[k] end
    if no_waits then process.blocked_ns = nil end
    if no_idle then process.idle_ns = nil end
    local threads, totals = {}, {}
    local function add_thread(r)
      if no_waits then r.blocked_ns = nil end
      if no_idle then r.idle_ns = nil end
      local off = minus(r.wall_ns, r.cpu_ns)
      totals[r.tid] = r
      threads[#threads + 1] = { tid = r.tid, thread = name(r.tid), main = r.tid == main and 1 or 0,
        wall_ns = r.wall_ns, cpu_ns = r.cpu_ns, offcpu_ns = off, blocked_ns = r.blocked_ns, idle_ns = r.idle_ns,
        unexplained_ns = minus(minus(off, r.blocked_ns), r.idle_ns), alloc_bytes = r.alloc_bytes,
        alloc_objects = r.alloc_objects, majflt = r.majflt, nvcsw = r.nvcsw, nivcsw = r.nivcsw }
    end
    for r in bt.rows("SELECT tid, " .. SUMS .. " FROM methods GROUP BY tid ORDER BY wall_ns DESC, tid LIMIT ?",
        p.threads) do
      add_thread(r)
    end
    if main and not totals[main] then
      for r in bt.rows("SELECT tid, " .. SUMS .. " FROM methods WHERE tid = ? GROUP BY tid", main) do
        add_thread(r)
      end
    end
    -- Off-CPU time by scheduler state (threads.*_dur, a trace's thread
    -- states): nil for a thread without them; the columns only when some
    -- thread has them.
    local STATES = { "runnable", "sleeping", "io", "uninterruptible" }
    local have_states, by_tid = false, {}
    for _, row in ipairs(threads) do by_tid[row.tid] = row end
    for r in bt.rows([[
SELECT tid, runnable_dur, sleeping_dur, io_dur, uninterruptible_dur FROM threads
WHERE runnable_dur IS NOT NULL ORDER BY tid]]) do
      local row = by_tid[r.tid]
      if row then
        for _, k in ipairs(STATES) do row[k .. "_ns"] = r[k .. "_dur"] end
        have_states = true
      end
    end
    local unrecorded = { alloc_bytes = facts.no_alloc, alloc_objects = facts.no_alloc, majflt = facts.no_faults,
      nvcsw = facts.no_csw, nivcsw = facts.no_csw }
    local columns = {}
    for _, c in ipairs({ "tid", "thread", "main", "wall_ns", "cpu_ns", "offcpu_ns", "runnable_ns", "sleeping_ns",
        "io_ns", "uninterruptible_ns", "blocked_ns", "idle_ns", "unexplained_ns", "alloc_bytes", "alloc_objects",
        "majflt", "nvcsw", "nivcsw" }) do
      local states = c == "runnable_ns" or c == "sleeping_ns" or c == "io_ns" or c == "uninterruptible_ns"
      if not unrecorded[c] and (have_states or not states) then columns[#columns + 1] = c end
    end
    -- Several processes of one capture (dumps imported together): each
    -- process, and each thread's, the lead (the app's main process) first.
    if nprocs > 1 then
      local procs = {}
      for r in bt.rows([[
SELECT p.pid, p.name, p.is_lead, p.threads, p.samples,
       (SELECT sum(cpu_dur) FROM threads t WHERE t.pid = p.pid) AS cpu_ns,
       (SELECT CAST(total(slices) AS INTEGER) FROM threads t WHERE t.pid = p.pid) AS slices,
       (SELECT count(*) FROM binder_calls c JOIN threads t ON t.tid = c.client_tid WHERE t.pid = p.pid) AS calls,
       (SELECT count(*) FROM binder_calls c WHERE c.server_pid = p.pid) AS served,
       (SELECT CAST(total(dur) AS INTEGER) FROM binder_calls c WHERE c.server_pid = p.pid) AS served_ns
FROM processes p ORDER BY p.is_lead DESC, cpu_ns DESC, slices DESC, p.pid LIMIT ?]], p.processes) do
        procs[#procs + 1] = { r.pid, r.name or "", r.is_lead, r.threads, r.samples, r.cpu_ns, r.slices, r.calls,
          r.served, r.served_ns }
      end
      bt.table{ name = "processes", title = nprocs > #procs and
          string.format("Processes of the capture: the %d with most CPU time and slices, of %d", #procs, nprocs)
          or "Processes of the capture",
        columns = { "pid", "process", "lead", "threads", "samples", "cpu_ns", "slices", "binder_calls",
          "calls_served", "served_wait_ns" },
        units = { pid = "", lead = "", threads = "count", samples = "count", slices = "count", binder_calls = "count",
          calls_served = "count" }, rows = procs }
      for r in bt.rows("SELECT tid, pid FROM threads WHERE pid IS NOT NULL ORDER BY tid") do
        if by_tid[r.tid] then by_tid[r.tid].pid = r.pid end
      end
      table.insert(columns, 2, "pid")
    end
    local title = "Threads"
    if all.threads > #threads then
      title = string.format("Threads: the %d with most wall time, of %d", #threads, all.threads)
    end
    bt.table{ name = "threads", title = title, columns = columns,
      units = { main = "", pid = "", majflt = "count", nvcsw = "count", nivcsw = "count", alloc_objects = "count" },
      rows = threads }

    -- Blocking by thread and kind, for the threads listed (none at all
    -- where waits are not in the trace); the process's kinds count every
    -- thread of the process in scope.
    local blocking, main_kind, process_kind = {}, {}, {}
    if not no_waits then for _, k in ipairs(KINDS) do process_kind[k] = 0 end end
    for r in bt.rows([[
SELECT tid, kind, CAST(total(self_count) AS INTEGER) AS n, CAST(total(self_ns) AS INTEGER) AS ns FROM method_blocking
GROUP BY tid, kind ORDER BY tid, ns DESC]]) do
      local t = totals[r.tid]
      if t then
        blocking[#blocking + 1] = { r.tid, name(r.tid), r.kind, r.n, r.ns,
          t.wall_ns > 0 and 100 * r.ns / t.wall_ns or 0 }
      end
      if r.tid == main then main_kind[r.kind] = r.ns end
      if not scoped or scoped[r.tid] then process_kind[r.kind] = (process_kind[r.kind] or 0) + r.ns end
    end
    if not no_waits then
      bt.table{ name = "blocking", title = "Blocked time by thread and kind",
        columns = { "tid", "thread", "kind", "count", "blocked_ns", "wall_pct" }, rows = blocking }
    end

    -- Metrics.
    bt.metric("process.threads", own.threads)
    for k, v in pairs(process) do if not unrecorded[k] then metric("process." .. k, v) end end
    metric("process.offcpu_ns", minus(process.wall_ns, process.cpu_ns))
    local m = main and totals[main]
    if m then
      bt.metric("thread.main.wall_ns", m.wall_ns)
      metric("thread.main.cpu_ns", m.cpu_ns)
      metric("thread.main.offcpu_ns", minus(m.wall_ns, m.cpu_ns))
      metric("thread.main.blocked_ns", m.blocked_ns)
      metric("thread.main.idle_ns", m.idle_ns)
      metric("thread.main.unexplained_ns", minus(minus(minus(m.wall_ns, m.cpu_ns), m.blocked_ns), m.idle_ns))
      if not no_waits then
        for _, k in ipairs(KINDS) do bt.metric("thread.main.blocked_ns." .. k, main_kind[k] or 0) end
      end
      for _, k in ipairs({ "alloc_bytes", "alloc_objects", "majflt", "nvcsw", "nivcsw" }) do
        if not unrecorded[k] then bt.metric("thread.main." .. k, m[k]) end
      end
    end

    -- Per method on the main thread: inclusive (what a call costs) and
    -- self (where the time is spent), CPU against off-CPU.
    local function method_rows(tid, order, cols)
      local rows = {}
      for r in bt.methods{ tid = tid, order = order, limit = p.top } do
        local row = {}
        for i, c in ipairs(cols) do row[i] = c(r) end
        rows[#rows + 1] = row
      end
      return rows
    end
    local function off(a, b) return function(r) return minus(r[a], r[b]) end end
    local function unexplained(w, c, b) return function(r) return minus(minus(r[w], r[c]), r[b]) end end
    local function col(c) return function(r) return r[c] end end
    local function waited(v) if no_waits then return nil end return v end
    local function blocked(c) return function(r) return waited(r[c]) end end
    if main then
      bt.table{ name = "main_methods", title = "Main thread: methods by inclusive time (top-down totals)",
        columns = { "method", "incl_ns", "incl_cpu_ns", "incl_offcpu_ns", "incl_blocked_ns",
          "incl_unexplained_ns", "self_ns", "self_cpu_ns" },
        rows = method_rows(main, "incl_ns", { col("name"), col("incl_ns"), col("incl_cpu_ns"),
          off("incl_ns", "incl_cpu_ns"), blocked("incl_blocked_ns"),
          function(r) return waited(unexplained("incl_ns", "incl_cpu_ns", "incl_blocked_ns")(r)) end,
          col("self_ns"), col("self_cpu_ns") }) }

      -- Bottom-up: self time, with the caller that contributes most; its
      -- off-CPU part by scheduler state where the trace has states.
      local self_rows = {}
      local SELF_STATES = { "self_runnable_ns", "self_sleeping_ns", "self_io_ns", "self_uninterruptible_ns" }
      local by_state = bt.scalar("SELECT 1 FROM methods WHERE tid = ? AND self_runnable_ns IS NOT NULL LIMIT 1", main)
      for r in bt.methods{ tid = main, order = "self_ns", limit = p.top } do
        local c = bt.query([[
SELECT caller_frame_id, self_ns FROM callers WHERE tid = ? AND frame_id = ?
ORDER BY self_ns DESC LIMIT 1]], main, r.frame_id)[1]
        local row = { r.name, r.self_ns, r.self_cpu_ns, minus(r.self_ns, r.self_cpu_ns) }
        if by_state then
          for _, k in ipairs(SELF_STATES) do row[#row + 1] = r[k] end
        end
        for _, v in ipairs({ waited(r.self_blocked_ns), c and c.caller_frame_id ~= 0 and bt.frame_name(c.caller_frame_id) or "",
            c and c.self_ns or 0 }) do row[#row + 1] = v end
        self_rows[#self_rows + 1] = row
      end
      local self_columns = { "method", "self_ns", "self_cpu_ns", "self_offcpu_ns" }
      if by_state then
        for _, k in ipairs(SELF_STATES) do self_columns[#self_columns + 1] = k end
      end
      for _, c in ipairs({ "self_blocked_ns", "top_caller", "top_caller_ns" }) do self_columns[#self_columns + 1] = c end
      bt.table{ name = "main_self", title = "Main thread: methods by self time (bottom-up)",
        columns = self_columns, rows = self_rows }

      -- Top-down call tree, nodes above tree_min_pct of the thread.
      local min = math.floor((m and m.wall_ns or 0) * p.tree_min_pct / 100)
      local nodes, kids, roots = {}, {}, {}
      for r in bt.rows([[
SELECT id, parent_id, frame_id, depth, incl_ns, self_ns, incl_cpu_ns, incl_blocked_ns
FROM calltree WHERE tid = ? AND incl_ns >= ?]], main, min) do
        nodes[r.id] = r
      end
      for _, r in pairs(nodes) do
        local list = r.parent_id and nodes[r.parent_id] and kids or nil
        if list then
          list[r.parent_id] = list[r.parent_id] or {}
          table.insert(list[r.parent_id], r)
        else
          roots[#roots + 1] = r
        end
      end
      local function by_incl(a, b)
        if a.incl_ns ~= b.incl_ns then return a.incl_ns > b.incl_ns end
        return a.id < b.id
      end
      local tree = {}
      local function walk(list)
        table.sort(list, by_incl)
        for _, r in ipairs(list) do
          tree[#tree + 1] = { string.rep("  ", r.depth) .. bt.frame_name(r.frame_id), r.incl_ns,
            r.self_ns, r.incl_cpu_ns, minus(r.incl_ns, r.incl_cpu_ns), waited(r.incl_blocked_ns),
            m.wall_ns > 0 and 100 * r.incl_ns / m.wall_ns or 0 }
          if kids[r.id] then walk(kids[r.id]) end
        end
      end
      walk(roots)
      bt.table{ name = "main_calltree", title = "Main thread: call tree (top-down)",
        columns = { "method", "incl_ns", "self_ns", "incl_cpu_ns", "incl_offcpu_ns",
          "incl_blocked_ns", "thread_pct" }, rows = tree }
    end

    -- All threads: self time, allocations, faults.
    local function top_all(tname, title, order, cols, names)
      local rows = {}
      for r in bt.methods{ order = order, limit = p.top } do
        local row = { name(r.tid), r.name }
        for i, c in ipairs(cols) do   -- a nil (unknown CPU, waits) keeps its column
          row[2 + i] = c:find("blocked") and waited(r[c]) or r[c]
        end
        rows[#rows + 1] = row
      end
      local columns = { "thread", "method" }
      for _, c in ipairs(names or cols) do columns[#columns + 1] = c end
      bt.table{ name = tname, title = title, columns = columns, rows = rows,
        units = { self_alloc_objects = "count", incl_alloc_objects = "count", self_majflt = "count",
          incl_majflt = "count", self_nvcsw = "count", incl_nvcsw = "count", self_nivcsw = "count",
          incl_nivcsw = "count" } }
    end
    top_all("methods", "All threads: methods by self time", "self_ns",
      { "self_ns", "self_cpu_ns", "self_blocked_ns", "incl_ns", "incl_cpu_ns" })
    if not facts.no_alloc then   -- a trace that records none has no table of zeros (the header says)
      top_all("alloc", "Allocations by method (where they happen)", "self_alloc_bytes",
        { "self_alloc_bytes", "incl_alloc_bytes", "self_alloc_objects", "incl_alloc_objects" })
    end
    if not (facts.no_faults and facts.no_csw) then
      top_all("faults", "Page faults and context switches by method", "self_majflt",
        { "self_majflt", "incl_majflt", "self_nvcsw", "incl_nvcsw", "self_nivcsw", "incl_nivcsw" })
    end

    -- Main-thread waits, longest first, with who ended them: each side
    -- named by its innermost app frame (bt_app_node), as the startup
    -- findings and the gate's holders name them, not by Unsafe.park.
    if main then
      local waits = {}
      for r in bt.rows([[
SELECT e.ts, e.kind, e.dur, e.waker_tid, e.waker_ts, wn.frame_id AS leaf, pn.frame_id AS caller,
       kn.frame_id AS waker_frame
FROM blocking_edges e
LEFT JOIN samples s ON s.id = e.waiter_sample_id
LEFT JOIN nodes wn ON wn.id = bt_app_node(coalesce(s.node_id, e.waiter_node_id))
LEFT JOIN nodes pn ON pn.id = wn.parent_id
LEFT JOIN nodes kn ON kn.id = bt_app_node(e.waker_node_id)
WHERE e.waiter_tid = ? ORDER BY e.dur DESC, e.ts]], main) do
        waits[#waits + 1] = { r.ts, r.kind, r.dur, bt.frame_name(r.leaf) or "", bt.frame_name(r.caller) or "",
          r.waker_tid and name(r.waker_tid) or "", r.waker_frame and bt.frame_name(r.waker_frame) or "",
          r.waker_ts }
      end
      bt.table{ name = "main_waits", title = "Main thread: waits and who ended them",
        columns = { "ts", "kind", "dur_ns", "blocked_in", "caller", "waker_thread", "waker_method",
          "waker_ts" }, units = { ts = "", waker_ts = "" }, spare = { "caller", "waker_ts" }, rows = waits }

      -- Longest Looper messages (jank and ANR candidates).
      local msgs, count, total, max, over16, over100 = {}, 0, 0, 0, 0, 0
      for r in bt.rows("SELECT count(*) AS n, CAST(total(dur) AS INTEGER) AS total, max(dur) AS max, " ..
          "CAST(total(dur >= 16000000) AS INTEGER) AS o16, CAST(total(dur >= 100000000) AS INTEGER) AS o100 FROM messages WHERE tid = ?", main) do
        count, total, max, over16, over100 = r.n, r.total or 0, r.max or 0, r.o16 or 0, r.o100 or 0
      end
      for r in bt.messages{ tid = main, limit = p.messages } do
        local top = {}
        for t in bt.rows([[SELECT frame_id, self_ns FROM message_methods
WHERE tid = ? AND msg_id = ? ORDER BY rank LIMIT 3]], main, r.msg_id) do
          top[#top + 1] = bt.short(bt.frame_name(t.frame_id)) .. " " .. bt.ms(t.self_ns)
        end
        msgs[#msgs + 1] = { r.msg_id, r.ts, r.dur, r.cpu_dur, minus(r.dur, r.cpu_dur), table.concat(top, "; ") }
      end
      bt.table{ name = "main_messages", title = "Main thread: longest Looper messages",
        columns = { "msg_id", "ts", "dur_ns", "cpu_ns", "offcpu_ns", "top_self_methods" },
        units = { ts = "" }, rows = msgs }
      bt.metric("thread.main.messages", count)
      bt.metric("thread.main.messages.total_ns", total)
      bt.metric("thread.main.messages.max_ns", max)
      bt.metric("thread.main.messages.over_16ms", over16)
      bt.metric("thread.main.messages.over_100ms", over100)
    end

    -- method.<symbol>.* for the methods that matter process-wide: what
    -- compare's stack-level diff reads. A method under the cut in a run
    -- reads as 0 there, so the cut is low.
    local pct = p.method_metric_pct / 100
    -- a zero total has nothing to attribute: its cut is NULL, which no
    -- sum passes (0 >= 0 would make every method a metric)
    local function cut(total) if total and total > 0 then return total * pct end return nil end
    local fields = {}
    for _, k in ipairs({ "self_ns", "self_cpu_ns", "self_offcpu_ns", "incl_ns", "incl_cpu_ns",
        "incl_offcpu_ns", "self_alloc_bytes", "incl_alloc_bytes", "self_majflt", "incl_majflt" }) do
      if not unrecorded[k:match("^%a+_(.*)$")] then fields[#fields + 1] = k end
    end
    for r in bt.rows([[
SELECT f.name, CAST(total(m.self_ns) AS INTEGER) AS self_ns,
       CASE WHEN count(m.self_cpu_ns) = count(*) THEN CAST(total(m.self_cpu_ns) AS INTEGER) END AS self_cpu_ns,
       CASE WHEN count(m.self_cpu_ns) = count(*) THEN CAST(total(m.self_ns - m.self_cpu_ns) AS INTEGER) END AS self_offcpu_ns,
       CAST(total(m.incl_ns) AS INTEGER) AS incl_ns,
       CASE WHEN count(m.incl_cpu_ns) = count(*) THEN CAST(total(m.incl_cpu_ns) AS INTEGER) END AS incl_cpu_ns,
       CASE WHEN count(m.incl_cpu_ns) = count(*) THEN CAST(total(m.incl_ns - m.incl_cpu_ns) AS INTEGER) END AS incl_offcpu_ns,
       CAST(total(m.self_alloc_bytes) AS INTEGER) AS self_alloc_bytes, CAST(total(m.incl_alloc_bytes) AS INTEGER) AS incl_alloc_bytes,
       CAST(total(m.self_majflt) AS INTEGER) AS self_majflt, CAST(total(m.incl_majflt) AS INTEGER) AS incl_majflt
FROM methods m JOIN frames f ON f.id = m.frame_id ]] .. (in_scope and "WHERE m." .. in_scope .. " " or "") .. [[GROUP BY f.name
HAVING CAST(total(m.incl_ns) AS INTEGER) >= ? OR CAST(total(m.self_cpu_ns) AS INTEGER) >= ? OR CAST(total(m.incl_alloc_bytes) AS INTEGER) >= ?
    OR CAST(total(m.incl_majflt) AS INTEGER) >= ? ORDER BY f.name]], cut(process.wall_ns), cut(process.cpu_ns), cut(process.alloc_bytes),
        cut(process.majflt)) do
      for _, k in ipairs(fields) do
        local v = r[k]
        if v ~= nil then bt.metric("method." .. r.name .. "." .. k, v) end   -- nil: CPU time not in the trace
      end
    end
    for k, v in pairs(process_kind) do bt.metric("process.blocked_ns." .. k, v) end
    if facts.slices then bt.metric("trace.slices", math.tointeger(facts.slices) or 0) end
  end,
}
