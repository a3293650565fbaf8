# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The command line as a user meets it: help, bad input (exit 2, one line on
stderr, nothing loaded), signals (exit 0), a reader that goes away, and no
BPF program left behind however tdtop ends; a sort key without values is
refused, and -p shows an idle target with zeros and ends with the last one."""
import json
import os
import signal
import subprocess
import sys
import time

from tdtest import (SWITCH_PROGS, TDTOP, SkipTest, Tdtop, Workload, assert_close,
                    assert_conservation, assert_machine_total, bpf_progs, observe, require_root,
                    rows_of, run, sum_rows, tdtop_progs, wait_no_progs)

HERE = os.path.dirname(os.path.abspath(__file__))


def _dead_pid():
    """A PID that existed a moment ago and is gone now."""
    p = subprocess.Popen(["true"])
    p.wait(10)
    return p.pid


def _one_line_error(res, what):
    err = res.stderr.decode("utf-8", "replace")
    assert res.returncode == 2, f"{what}: exit {res.returncode}, want 2 (stderr={err!r})"
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].strip() and err.endswith("\n"), \
        f"{what}: want one line on stderr, got {err!r}"
    assert not res.stdout, f"{what}: stdout not empty: {res.stdout[:200]!r}"


def test_help_and_version():
    res = run([TDTOP, "-h"])
    assert res.returncode == 0 and b"usage" in res.stdout.lower(), res
    assert not res.stderr, res.stderr
    with open(os.path.join(HERE, "..", "..", "VERSION")) as f:
        version = f.read().strip()
    for opt in ("-V", "--version"):
        res = run([TDTOP, opt])
        assert res.returncode == 0 and version.encode() in res.stdout, res


def test_list_events():
    res = run([TDTOP, "--list-events"])
    assert res.returncode == 0, res
    names = res.stdout.decode()
    for ev in ("cpu-clock", "task-clock", "context-switches", "cpu-migrations", "page-faults",
               "minor-faults", "major-faults"):
        assert ev in names, f"{ev} not listed: {names[:500]!r}"


def _json_tool(args, env=None):
    """tdtop ARGS piped into python3 -m json.tool, as a script would read it."""
    td = subprocess.Popen([TDTOP, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env)
    tool = subprocess.run([sys.executable, "-m", "json.tool"], stdin=td.stdout,
                          capture_output=True, timeout=30)
    td.stdout.close()
    err = td.stderr.read().decode("utf-8", "replace")
    assert td.wait(30) == 0, f"{args}: exit {td.returncode}: {err!r}"
    assert not err, f"{args}: stderr {err!r}"
    assert tool.returncode == 0, f"{args}: json.tool: {tool.stderr!r}"
    return json.loads(tool.stdout)


def test_list_json():
    """--list and --list-events with -o json: one JSON document each, with
    the facts of the text lists, here and on a fixture machine with TopDown."""
    d = _json_tool(["--list", "-o", "json"])
    assert d["sysfs"] == "/sys" and isinstance(d["topdown"]["available"], bool), d
    text = run([TDTOP, "--list"]).stdout.decode()
    assert d["cpu"]["model_name"] in text, (d["cpu"], text)
    ev = _json_tool(["--list-events", "-o", "json"])
    names = {e["name"] for e in ev["software"]}
    assert {"cpu-clock", "context-switches", "page-faults"} <= names, names
    text = run([TDTOP, "--list-events"]).stdout.decode()
    for pmu in ev["pmus"]:
        for e in pmu["events"]:
            assert e["event"] in text, e
    icx = dict(os.environ, TDTOP_SYSFS=os.path.join(HERE, "..", "fixtures", "sysfs", "icelake"))
    d = _json_tool(["--list", "-o", "json", "-l", "2"], env=icx)
    assert d["topdown"]["methods"] == ["perf_metrics"], d["topdown"]
    assert d["topdown"]["parts"][0]["events"][0]["role"] == "slots", d["topdown"]
    res = run([TDTOP, "--list", "-o", "csv"])
    _one_line_error(res, "--list -o csv")


def test_list_read_plan():
    """--list says how each event is read at a switch and how many helper
    calls that takes per core type; --helper-reads reads every event."""
    fixtures = os.path.join(HERE, "..", "fixtures", "sysfs")
    # fixture, options, helper calls per core type, metrics loaded from memory
    cases = [("sapphirerapids", ["--level", "2"], [3], 8),
             ("alderlake", [], [3, 5], 4),
             ("zen4", [], [6], 0)]
    for fx, args, calls_default, nr_members in cases:
        env = dict(os.environ, TDTOP_SYSFS=os.path.join(fixtures, fx))
        for extra in ([], ["--helper-reads"]):
            res = run([TDTOP, "--list", *args, *extra], env=env)
            out = res.stdout.decode()
            assert res.returncode == 0, f"{fx} {extra}: {res}"
            lines = out.splitlines()
            calls = [int(line.split(":")[1]) for line in lines
                     if line.startswith("  helper calls per switch:")]
            members = [line for line in lines if "memory (current after the read of" in line]
            want_calls = calls_default if not extra else \
                [calls_default[0] + nr_members] + calls_default[1:]
            assert calls == want_calls, f"{fx} {extra}: helper calls {calls}, want {want_calls}"
            assert len(members) == (0 if extra else nr_members), \
                f"{fx} {extra}: read from memory: {members}"


def test_bad_options_exit_2():
    require_root()    # as root, a bad option must still stop before anything is loaded
    before = {p[0] for p in bpf_progs()}
    cases = [
        ["-d", "-1"], ["-d", "abc"], ["-d", ""], ["-d", "1x"], ["-d", "nan"],
        ["-n", "-1"], ["-n", "x"], ["-n", "2.5"],
        ["--bogus"], ["-Z"], ["-d"], ["extra-argument"],
        ["-p", str(_dead_pid())], ["-p", "abc"], ["-p", "1,,2"], ["-p", "-5"],
        ["-p", "99999999999999999999"],
        ["-o", "xml"], ["-s", "no-such-key"], ["--top", "-3"], ["--max-tasks", "x"],
    ]
    for args in cases:
        _one_line_error(run([TDTOP, "-b", *args], timeout=10), " ".join(args))
    left = wait_no_progs(-1, before)
    assert not left, f"programs left loaded by a usage error: {left}"


def test_unknown_event():
    for ev in ("no-such-event", "cpu-clock,bogus", "nopmu/xyz/"):
        res = run([TDTOP, "-b", "-n", "1", "-e", ev], timeout=10)
        err = res.stderr.decode("utf-8", "replace")
        assert res.returncode != 0, f"-e {ev}: exit 0"
        assert "--list-events" in err, f"-e {ev}: message does not point to --list-events: {err!r}"
        assert len(err.splitlines()) == 1, f"-e {ev}: want one line, got {err!r}"
        assert res.returncode == 2, f"-e {ev}: exit {res.returncode}, want 2 (usage error)"


def test_event_that_cannot_open():
    """A known name the machine cannot count (no hardware PMU here) fails
    cleanly: non-zero, a message, nothing left loaded."""
    require_root()
    if os.path.exists("/sys/bus/event_source/devices/cpu"):
        raise SkipTest("this machine has a core PMU")
    before = {p[0] for p in bpf_progs()}
    res = run([TDTOP, "-b", "-n", "1", "-e", "cycles"], timeout=10)
    err = res.stderr.decode("utf-8", "replace")
    assert res.returncode in (1, 2), f"exit {res.returncode}: {err!r}"
    assert err.strip() and len(err.splitlines()) <= 3, err
    left = wait_no_progs(-1, before)
    assert not left, f"programs left after the failed start: {left}"


def test_iterations_then_exit():
    require_root()
    with Tdtop("-e", "cpu-clock", "-n", "3", "-d", "0.2") as td:
        rc = td.wait_exit(timeout=15)
        assert rc == 0, td.stderr()
        assert len(td.intervals()) == 3, len(td.intervals())
        assert not td.stderr(), td.stderr()


def _signal_exits_zero(sig):
    require_root()
    before = {p[0] for p in bpf_progs()}
    with Tdtop("-e", "cpu-clock", "-d", "0.3") as td:
        td.wait_intervals(1)
        rc = td.stop(sig)
        assert rc == 0, f"exit {rc} after signal {sig}: {td.stderr()!r}"
        assert not td.stderr(), td.stderr()
        td.intervals()    # everything printed parses
        left = wait_no_progs(td.proc.pid, before)
        assert not left, f"programs left after signal {sig}: {left}"


def test_sigint_exits_zero():
    _signal_exits_zero(signal.SIGINT)


def test_sigterm_exits_zero():
    _signal_exits_zero(signal.SIGTERM)


def test_kill9_leaves_nothing_loaded():
    require_root()
    before = {p[0] for p in bpf_progs()}
    with Tdtop("-d", "0.3") as td:
        td.wait_intervals(1)
        mine = [p for p in tdtop_progs(before) if td.proc.pid in p[2]]
        names = {p[1] for p in mine}
        # otherwise the check below could not fail
        assert names & set(SWITCH_PROGS), f"tdtop's programs not visible in bpftool: {mine}"
        td.proc.kill()
        td.proc.wait(10)
        left = wait_no_progs(td.proc.pid, before)
        assert not left, f"programs left after kill -9: {left}"


def _head_quiet(ignore_sigpipe):
    """The contract's own command line. Startup notices (the same as a run
    to a file prints) are allowed on stderr; nothing more."""
    require_root()
    notices = run([TDTOP, "-b", "-o", "json", "-n", "1", "-d", "0.1"], timeout=15)
    assert notices.returncode == 0, notices
    script = f"'{TDTOP}' -b -o json 2>\"$ERR\" | head -1"
    env = dict(os.environ, ERR=f"/tmp/tdtop-head-{os.getpid()}.err")
    try:
        t0 = time.monotonic()
        res = subprocess.run(["sh", "-c", script], capture_output=True, timeout=20, env=env,
                             restore_signals=not ignore_sigpipe,
                             preexec_fn=(lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
                             if ignore_sigpipe else None)
        took = time.monotonic() - t0
        with open(env["ERR"], "rb") as f:
            err = f.read()
    finally:
        if os.path.exists(env["ERR"]):
            os.unlink(env["ERR"])
    assert res.returncode == 0, res
    lines = res.stdout.decode().splitlines()
    assert len(lines) == 1, lines
    assert json.loads(lines[0])["type"] == "interval", lines[0]
    assert err == notices.stderr, \
        f"stderr after head exited: {err!r} (a run to a file prints {notices.stderr!r})"
    assert took < 10, f"pipeline took {took:.1f}s"


def test_head_quiet():
    _head_quiet(False)


def test_head_quiet_sigpipe_ignored():
    """Same with SIGPIPE ignored by the caller (inherited): EPIPE must end it quietly."""
    _head_quiet(True)


def test_pid_filter():
    """-p shows only the chosen processes, but the totals stay machine-wide."""
    require_root()
    # busy for longer than the three runs take, however slow the machine
    # (the workloads are killed when the block ends)
    with Workload("burn", 60000, 1) as a, Workload("burn", 60000, 1) as b:
        a.ready()
        b.ready()
        for args, want in ((["-p", str(a.pid)], {a.pid}),
                           (["-p", f"{a.pid},{b.pid}"], {a.pid, b.pid}),
                           (["-H", "-p", str(b.pid)], {b.pid})):
            with Tdtop("-e", "cpu-clock", "-d", "0.3", *args) as td:
                td.wait_intervals(1)
                if args == ["-p", str(a.pid)]:
                    a.go()
                    b.go()
                td.wait_intervals(4)
                assert td.stop() == 0, td.stderr()
                ivs = td.intervals()[1:]
            pids = {r["pid"] for _, rs in ivs for r in rs}
            assert pids == want, f"{args}: rows for {pids}, want {want}"
            for iv, rs in ivs:
                assert_machine_total(iv, f"{args}")
                shown = sum(r["cpu_ns"] for r in rs)
                others = iv["cpu_ns"]["total"] - shown - iv["cpu_ns"]["idle"] - iv["cpu_ns"]["lost"]
                if want == {a.pid} and iv["ts"] - iv["interval_s"] >= b.go_time:
                    # b burns a CPU all along but is not shown: its time is in the totals
                    assert others >= 0.5 * iv["interval_s"] * 1e9, (iv, shown)
            if "-H" in args:
                assert all(r["type"] == "thread" for _, rs in ivs for r in rs)


def test_text_output():
    require_root()
    res = run([TDTOP, "-b", "-o", "text", "-e", "cpu-clock", "-n", "2", "-d", "0.2"], timeout=15)
    assert res.returncode == 0, res.stderr
    assert not res.stderr, res.stderr
    out = res.stdout.decode("utf-8")
    assert len(out.splitlines()) >= 4, out


def test_sort_and_top():
    """-s orders the rows (cpu and events descending, pid ascending) and
    --top keeps the first N."""
    require_root()
    # busy for longer than the six runs take, even with the sanitizer build
    # (the workload is killed when the block ends)
    with Workload("burn", 30000, 2, "spawn", 200, now=True):
        with Tdtop("-e", "cpu-clock", "-n", "2", "-d", "0.3", "--top", "2") as td:
            assert td.wait_exit() == 0, td.stderr()
            for _, rows in td.intervals():
                assert len(rows) == 2, len(rows)
        for args, key, desc in ((["-s", "cpu"], lambda r: r["cpu_ns"], True),
                                ([], lambda r: r["cpu_ns"], True),
                                (["-s", "pid"], lambda r: r["pid"], False),
                                (["-s", "context-switches"],
                                 lambda r: r["counts"]["context-switches"], True),
                                # an alias -e accepts, as in the --help example
                                (["-s", "cs"], lambda r: r["counts"]["context-switches"], True)):
            with Tdtop("-e", "cpu-clock,context-switches", "-n", "2", "-d", "0.3", *args) as td:
                assert td.wait_exit() == 0, td.stderr()
                ivs = td.intervals()
            assert len(ivs) == 2, len(ivs)
            for _, rows in ivs:
                keys = [key(r) for r in rows]
                assert len(rows) >= 3 and keys == sorted(keys, reverse=desc), (args, keys)


def test_msr_tsc():
    """A non-software PMU event (msr/tsc/, ticking at a constant rate) is
    attributed like the others: each interval adds up, and a process's
    tsc per ns on CPU is the machine's."""
    require_root()
    if not os.path.exists("/sys/bus/event_source/devices/msr/events/tsc"):
        raise SkipTest("no msr/tsc/ event")
    evs = ("cpu-clock", "msr/tsc/")
    with Workload("burn", 600, 2) as wl:
        ivs = observe(wl, "-e", ",".join(evs), "-d", "0.3")
    assert_conservation(ivs, evs)
    rate = sum(iv["totals"]["msr/tsc/"] for iv, _ in ivs) / \
        sum(iv["totals"]["cpu-clock"] for iv, _ in ivs)
    assert rate > 0.1, f"tsc ticks per ns: {rate}"
    rows = rows_of(ivs, wl.pid)
    mine = sum_rows(rows, "msr/tsc/") / sum_rows(rows, "cpu-clock")
    assert_close("workload's tsc per cpu-clock ns vs the machine's", mine, rate, rel=0.01)


def test_sort_key_without_values_is_a_usage_error():
    """-s backend without TopDown (as on most VMs) used to sort by PID
    without a word: now it is refused, naming the key and what there is."""
    require_root()
    if os.path.exists("/sys/bus/event_source/devices/cpu"):
        raise SkipTest("this machine has a core PMU: TopDown may be measured")
    before = {p[0] for p in bpf_progs()}
    for args in (["-s", "backend"], ["-l", "2", "-s", "backend"], ["-s", "slots"],
                 ["-s", "ipc", "-e", "cpu-clock"], ["--by", "cgroup", "-s", "pid"]):
        res = run([TDTOP, "-b", "-n", "1", "-d", "0.1", *args], timeout=15)
        _one_line_error(res, " ".join(args))
        err = res.stderr.decode()
        key = args[args.index("-s") + 1]
        assert f"sort key '{key}' has no values here" in err and "(available: cpu" in err, err
    assert not wait_no_progs(-1, before), "programs left loaded"


def test_pid_targets_idle_shown_and_their_exit_ends_the_run():
    """-p: a target that does not run has a row of zeros in every interval;
    tdtop goes on while one lives, then says so and exits 0 by itself."""
    require_root()
    a = subprocess.Popen(["sleep", "60"])
    b = subprocess.Popen(["sleep", "60"])
    try:
        with Tdtop("-e", "cpu-clock", "-d", "0.2", "-p", f"{a.pid},{b.pid}") as td:
            td.wait_intervals(4)
            a.kill()
            a.wait(10)
            time.sleep(1.5)
            assert td.proc.poll() is None, f"stopped with a target alive: {td.stderr()!r}"
            b.kill()
            b.wait(10)
            assert td.wait_exit(timeout=15) == 0, td.stderr()
            err = td.stderr()
            ivs = td.intervals()
    finally:
        for p in (a, b):
            if p.poll() is None:
                p.kill()
                p.wait(10)
    assert "all 2 processes of -p have exited" in err, err
    idle = [r for _, rows in ivs[1:4] for r in rows if r["pid"] == b.pid]
    assert len(idle) == 3 and all(r["cpu_ns"] == 0 and r["threads"] == 0 and
                                  r["comm"] == "sleep" for r in idle), idle
    # gone: no more zero rows for it
    assert not any(r["pid"] == a.pid for _, rows in ivs[-2:] for r in rows), ivs[-2:]
    with Tdtop("-e", "cpu-clock", "-d", "0.2", "-H", "-p", str(os.getpid())) as td:
        td.wait_intervals(2)
        rows = [r for _, rs in td.intervals() for r in rs]
        assert rows and all(r["type"] == "thread" and r["pid"] == os.getpid() for r in rows)
        td.stop()
