#!/usr/bin/env python3
"""Look for new ways out of the rule sandbox's budgets (lua/sandbox.h).

Writes rule files that compose the standard library's calls with extreme
arguments (huge counts, long strings, lying __len, nested coroutines,
long-string compares) inside endless loops, runs each under
btrace-analyze and fails when a run outlives its budget or crashes. Two
modes alternate: the CPU budget alone (a short lua.max_cpu_ms), and the
work count alone (a short lua.max_instructions, CPU unbounded), so a
library function that is not charged for its work shows up even though
the CPU timer would stop it.

usage: lua_escapes.py BIN INPUT SECONDS [--seed N] [--slow K] [--keep DIR]
Prints one line of counts; exit 1 with the escaping files kept in DIR.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

INTS = ["math.maxinteger", "math.mininteger", "0", "-1", "1", "7", "1 << 31", "-(1 << 31)",
        "1 << 40", "1e15", "-1e15", "2^53", "1e308", "math.huge", "-math.huge", "0/0", "65535"]
STRS = ['""', '"a"', "S", "BIG", "HUGE", '"%a+.-.-.-b"', '"\\0\\0x"', '"h\\u{E9}llo"', '"(.-)%1"',
        '("x"):rep(1000)']
TABS = ["{}", "T", "TBIG", "TLEN", "TIDX", "TSTR"]
PRELUDE = """
local S = ("ab"):rep(512)
local BIG = ("a"):rep(1 << 21)
local HUGE = ("a"):rep(1 << 24)
local HUGE2 = ("a"):rep((1 << 24) - 1) .. "b"
local T = {1, 2, 3}
local TBIG = {} for i = 1, 100000 do TBIG[i] = i end
local TSTR = {} for i = 1, 2000 do TSTR[i] = BIG:sub(1, 1000 + i % 7) end
local TLEN = setmetatable({}, { __len = function() return math.maxinteger end })
local TIDX = setmetatable({}, { __index = function(t, k) return k end,
                                __len = function() return 1 << 40 end })
local function F(...) return ... end
"""


def pick(r, pool):
    return r.choice(pool)


def call(r, vm):
    i, s, t = (lambda: pick(r, INTS)), (lambda: pick(r, STRS)), (lambda: pick(r, TABS))
    forms = [
        lambda: f"string.rep({s()}, {i()}, {s()})",
        lambda: f"string.rep({s()}, {i()})",
        lambda: f"({s()}):sub({i()}, {i()})",
        lambda: f"({s()}):byte({i()}, {i()})",
        lambda: f"({s()}):upper()",
        lambda: f"({s()}):reverse()",
        lambda: f"string.format('%s%q', {s()}, {s()})",
        lambda: f"string.pack('s4', {s()})",
        lambda: f"string.unpack('z', {s()})",
        lambda: f"({s()}):find({s()}, {i()}, true)",
        lambda: f"({s()}):find({s()}, {i()})",
        lambda: f"({s()}):match({s()})",
        lambda: f"({s()}):gsub({s()}, {s()}, {i()})",
        lambda: f"for _ in ({s()}):gmatch({s()}) do end",
        lambda: f"table.concat({t()}, {s()}, {i()}, {i()})",
        lambda: f"table.concat({t()})",
        lambda: f"table.insert({t()}, {i()}, 0)",
        lambda: f"table.insert({t()}, 1, 0); table.remove({t()}, 1)",
        lambda: f"table.remove({t()}, {i()})",
        lambda: f"table.move({t()}, {i()}, {i()}, {i()})",
        lambda: f"table.move({t()}, {i()}, {i()}, {i()}, {{}})",
        lambda: f"table.sort({t()})",
        lambda: f"table.sort({t()}, function(a, b) return a > b end)",
        lambda: f"table.unpack({t()}, {i()}, {i()})",
        lambda: f"select({i()}, table.unpack(TBIG, 1, 5000))",
        lambda: f"utf8.len({s()}, {i()}, {i()})",
        lambda: f"utf8.len({s()})",
        lambda: f"utf8.offset({s()}, {i()}, {i()})",
        lambda: f"utf8.codepoint({s()}, {i()}, {i()})",
        lambda: f"for _ in utf8.codes({s()}) do end",
        lambda: f"local _ = tostring({s()}) .. tostring({i()})",
        lambda: f"tonumber({s()}, {i()})",
        lambda: f"load({s()})",
        lambda: f"load(('local a = 1 '):rep({i()}))",
        lambda: "collectgarbage()",
        lambda: "collectgarbage('step', 1 << 30)",
    ]
    if vm:   # one instruction of the VM over 16 MB: only the CPU clock sees it
        forms += [lambda: "local _ = HUGE < HUGE2", lambda: "local _ = HUGE == HUGE2"]
    forms += [
        lambda: f"local _ = #({s()} .. {s()})",
        lambda: f"coroutine.wrap(function() {call(r, vm)} end)()",
        lambda: f"coroutine.resume(coroutine.create(function() {call(r, vm)} end))",
        lambda: f"coroutine.wrap(function() for k = 1, 50 do coroutine.yield(k) end end)()",
        lambda: f"pcall(error, {s()})",
        lambda: f"next({t()})",
        lambda: f"F(table.unpack(TBIG, 1, {i()}))",
    ]
    return r.choice(forms)()


def rule_file(r, vm):
    body = "\n".join(f"    pcall(function() {call(r, vm)} end)" for _ in range(r.randint(1, 4)))
    loop = r.choice(["while true do", "for k = 1, 1e9 do", "for k = 1, 3 do"])
    inner = f"  {loop}\n{body}\n  end"
    if r.random() < 0.3:   # the whole loop inside coroutines, made again and again
        inner = f"  while true do coroutine.wrap(function()\n{inner}\n  end)() end"
    return f"{PRELUDE}\nbt.rule{{ id = 'gen', run = function()\n{inner}\nend }}\n"


def run(cmd, timeout):
    """(returncode or None on timeout, wall s, peak RSS MB, stderr)."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        t0 = time.monotonic()
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > timeout:
                os.killpg(p.pid, signal.SIGKILL)
                os.wait4(p.pid, 0)
                return None, timeout, 0, b""
            time.sleep(0.01)
        err.seek(0)
        return os.waitstatus_to_exitcode(status), time.monotonic() - t0, ru.ru_maxrss // 1024, err.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("input")
    ap.add_argument("seconds", type=float)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--slow", type=float, default=1.0, help="the build's slowness (sanitizers)")
    ap.add_argument("--keep", default="lua-escapes")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    r = random.Random(seed)
    tmp = tempfile.mkdtemp(prefix="lua-escapes-")
    counts = {"cases": 0, "time": 0, "memory": 0, "error": 0, "ended": 0}
    bad = []
    t_end = time.monotonic() + a.seconds
    try:
        while time.monotonic() < t_end:
            n = counts["cases"]
            path = os.path.join(tmp, f"case{n}.lua")
            with open(path, "w") as f:
                f.write(rule_file(r, vm=n % 2 == 0))
            if n % 2:   # the work count alone
                limits, bound = ["lua.max_instructions=30000000", "lua.max_cpu_ms=600000"], 10
            else:       # the CPU budget alone
                limits, bound = ["lua.max_instructions=1000000000000", "lua.max_cpu_ms=300"], 4
            cmd = [a.bin, "-q", a.input, "--rules", path, "-o", os.path.join(tmp, "out.json"),
                   "--set", limits[0], "--set", limits[1], "--set", "lua.max_memory_mb=96"]
            rc, wall, rss, err = run(cmd, bound * a.slow)
            counts["cases"] += 1
            text = err.decode("utf-8", "replace")
            why = None
            if rc is None:
                why = f"still running after {bound * a.slow:.0f} s"
            elif rc not in (0, 1) or "Sanitizer" in text or "runtime error" in text:
                why = f"exit {rc}: {text[:300]}"
            elif rc == 1 and not text.startswith("btrace-analyze: error: "):
                why = f"exit 1 without the tool's error: {text[:300]}"
            elif rss > 400 * a.slow:
                why = f"peak RSS {rss} MB past a 96 MB account"
            if why:
                os.makedirs(a.keep, exist_ok=True)
                kept = os.path.join(a.keep, f"escape{len(bad)}.lua")
                shutil.copy(path, kept)
                bad.append(f"{kept} ({' '.join(limits)}): {why}")
            elif "time limit" in text:
                counts["time"] += 1
            elif "memory limit" in text:
                counts["memory"] += 1
            elif rc == 1:
                counts["error"] += 1
            else:
                counts["ended"] += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"seed {seed}: {counts['cases']} cases, {counts['time']} stopped by time, "
          f"{counts['memory']} by memory, {counts['error']} errors, {counts['ended']} ended, "
          f"{len(bad)} escaped")
    for b in bad:
        print("escape:", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
