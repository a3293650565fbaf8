# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Hardening: tdtop under AddressSanitizer/UBSan and valgrind on real runs;
privileges (root, exactly CAP_BPF + CAP_PERFMON, none); and faults: two
instances at once, a process exec'ing or exiting mid-interval (also exec
from a thread), /proc entries vanishing under the interactive view, SIGHUP
and a terminal that goes away, a CPU taken offline and back, and another
user of the perf events. kill -9 is covered by test_cli."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from tdfixtures import Pane, assert_sane_terminal
from tdtest import (ALWAYS_PROGS, SANITIZED, SWITCH_PROGS, TDTOP, Child, SkipTest, Tdtop, Workload,
                    assert_close, assert_conservation, bpf_progs, children, helper_path,
                    require_cpus, require_root, rows_of, run, steal_ns, stolen_since, sum_rows,
                    task_map, wait_no_progs)

TOP = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TDTOP_SAN = os.environ.get("TDTOP_SAN", os.path.join(TOP, "tdtop-san"))
VALGRIND = shutil.which("valgrind")
PERF = shutil.which("perf")
SETPRIV = shutil.which("setpriv")
EVS = ("cpu-clock", "context-switches")
MS = 1000000
SANITIZER_REPORT = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|"
                              r"UndefinedBehaviorSanitizer|SUMMARY: \w+Sanitizer")


def _cpu_ticks(pid):
    """utime + stime of pid in clock ticks, None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return None


def _comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().rstrip("\n")
    except OSError:
        return None


def _wait_gone(pid, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not os.path.exists(f"/proc/{pid}") or _is_zombie(pid):
            return True
        time.sleep(0.05)
    return False


def _is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _progs_of(pid):
    """Names of the BPF programs pid holds open."""
    return {name for _, name, owners in bpf_progs() if pid in owners}


# ---- sanitizers and valgrind ----

def _san_binary():
    if not os.access(TDTOP_SAN, os.X_OK):
        raise SkipTest(f"no sanitizer build at {TDTOP_SAN} (make SAN=1, or set TDTOP_SAN)")
    return TDTOP_SAN


def _san_env():
    return dict(os.environ, ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0",
                UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")


def _san_run(args, timeout=60, output=None):
    """Runs the sanitizer build; its output is stdout or the file *output*."""
    res = run(args, timeout=timeout, env=_san_env())
    err = res.stderr.decode("utf-8", "replace")
    assert not SANITIZER_REPORT.search(err), f"sanitizer report from {args}:\n{err[-4000:]}"
    assert res.returncode == 0, f"{args} exited with {res.returncode}: {err[-2000:]}"
    if output:
        assert os.path.getsize(output) > 0, f"{args} wrote nothing to {output}"
    else:
        assert res.stdout, f"{args} printed nothing"
    return res


def test_sanitizers_batch_record_report():
    """Batch runs in every output format and grouping, a record and the
    reports of it (plain, JSON by thread, CSV by cgroup, a diff) under
    ASan + UBSan + LeakSanitizer, while a workload starts and ends threads
    and processes: nothing may be reported."""
    require_root()
    san = _san_binary()
    with Workload("threads", 40, 2000, "spawn", 4000, 300, "burn", 1500, 2, now=True) as wl, \
            tempfile.TemporaryDirectory() as tmp:
        wl.ready()
        base = [san, "-b", "-d", "0.2", "-n", "3"]
        _san_run(base)                                    # TopDown discovery, fallback, text
        _san_run(base + ["-o", "json", "-H", "-e", "cpu-clock,cs,faults", "-s", "cs"])
        _san_run(base + ["-o", "csv", "--by", "cgroup", "-e", "cpu-clock", "--top", "5"])
        rec = [os.path.join(tmp, f"r{i}.jsonl.gz") for i in range(2)]
        for path in rec:
            _san_run([san, "record", "-o", path, "-e", "cpu-clock,context-switches",
                      "-d", "0.2", "-n", "3", "--by", "cgroup"], output=path)
        _san_run([san, "report", "-b", rec[0]])
        _san_run([san, "report", "-o", "json", "-H", rec[0]])
        _san_run([san, "report", "-o", "csv", "--by", "cgroup", rec[1]])
        _san_run([san, "report", "-b", "--diff", rec[0], rec[1]])
        wl.done(timeout=60)


def _valgrind_shim(tmp):
    """Builds tests/valgrind/bpf_defined.c: marks what bpf() batch lookups
    wrote as defined, which valgrind 3.19 does not know about."""
    src = os.path.join(TOP, "tests", "valgrind", "bpf_defined.c")
    so = os.path.join(tmp, "bpf_defined.so")
    res = run(["cc", "-O2", "-shared", "-fPIC", "-o", so, src, "-ldl"], timeout=60)
    assert res.returncode == 0, f"building {src} failed: {res.stderr.decode()}"
    return so


def _valgrind(args, tmp, shim=None):
    supp = os.path.join(TOP, "tests", "valgrind", "libbpf.supp")
    env = dict(os.environ)
    if shim:
        env["LD_PRELOAD"] = shim
    cmd = [VALGRIND, "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=all",
           f"--suppressions={supp}", "--track-origins=yes", *args]
    res = run(cmd, timeout=120, env=env)
    err = res.stderr.decode("utf-8", "replace")
    assert res.returncode == 0, f"valgrind {args} exited with {res.returncode}:\n{err[-6000:]}"
    assert "ERROR SUMMARY: 0 errors" in err, err[-3000:]
    assert "All heap blocks were freed" in err or "definitely lost: 0" in err, err[-3000:]
    return res


def test_valgrind_batch_and_report():
    """memcheck on a live batch run (text, then JSON by thread) and on a
    report: no invalid access, no use of uninitialised memory, no leak.
    tests/valgrind/ holds the shim and the one libbpf-internal suppression
    this needs (see the comments there)."""
    require_root()
    if SANITIZED:
        raise SkipTest("valgrind cannot run the AddressSanitizer build")
    if not VALGRIND:
        raise SkipTest("needs valgrind")
    with tempfile.TemporaryDirectory() as tmp:
        shim = _valgrind_shim(tmp)
        _valgrind([TDTOP, "-b", "-n", "2", "-d", "0.3", "-e", "cpu-clock"], tmp, shim)
        _valgrind([TDTOP, "-b", "-n", "2", "-d", "0.3", "-o", "json", "-H",
                   "-e", "cpu-clock,context-switches"], tmp, shim)
        rec = os.path.join(tmp, "r.jsonl.gz")
        res = run([TDTOP, "record", "-o", rec, "-e", "cpu-clock", "-d", "0.2", "-n", "2"],
                  timeout=30)
        assert res.returncode == 0, res
        _valgrind([TDTOP, "report", "-b", rec], tmp)


# ---- privileges ----

def _as_nobody(caps):
    """The command that runs the rest as user nobody holding exactly *caps*
    (e.g. "bpf,perfmon"; "" for none)."""
    if not SETPRIV:
        raise SkipTest("needs setpriv (util-linux)")
    cmd = [SETPRIV, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    if caps:
        plus = ",".join(f"+{c}" for c in caps.split(","))
        return cmd + [f"--inh-caps={plus}", f"--ambient-caps={plus}"]
    return cmd + ["--inh-caps=-all"]


def _as_user(caps, *args, timeout=30):
    """tdtop as user nobody holding exactly *caps*."""
    return run(_as_nobody(caps) + [TDTOP, *args], timeout=timeout)


def _caps_run_matches_truth(caps):
    """A burn measured by tdtop running with *caps* only (and RLIMIT_MEMLOCK
    0); returns the intervals after checking them against the burn's own
    CPU time."""
    # prlimit runs after setpriv: an unprivileged user can lower, not raise
    wrap = _as_nobody(caps) + ["prlimit", "--memlock=0:0", "--"]
    with Workload("burn", 400) as wl:
        wl.ready()
        with Tdtop("-e", ",".join(EVS), "-d", "0.3", wrap=wrap) as td:
            td.wait_intervals(1)
            wl.run(timeout=30)
            # the burn's last slice ends in the interval after done at the latest
            td.wait_more(2)
            ivs = td.finish()
    assert_conservation(ivs, EVS)
    rows = rows_of(ivs, wl.pid, kind=None)
    # tdtop's slices include what the hypervisor stole, the kernel's runtime not
    assert_close(f"burn cpu_ns with only {caps}", sum_rows(rows), wl.sched_ns, rel=0.02,
                 slack=5 * MS + wl.stolen_ns)
    return ivs


def test_caps_bpf_perfmon_suffice():
    """User nobody with exactly CAP_BPF + CAP_PERFMON (and RLIMIT_MEMLOCK 0)
    measures correctly. The self-cost needs the kernel's BPF run-time
    statistics, which only CAP_SYS_ADMIN may switch on: it is absent (null)
    then, and present as root."""
    require_root()
    if not SETPRIV:
        raise SkipTest("needs setpriv (util-linux)")
    ivs = _caps_run_matches_truth("bpf,perfmon")
    costs = {iv["self"].get("bpf_ns_per_switch") for iv, _ in ivs}
    assert costs == {None}, f"self-cost without CAP_SYS_ADMIN: {costs}"
    print(f"    CAP_BPF+CAP_PERFMON: {len(ivs)} intervals, self-cost absent (bpf_enable_stats "
          "needs CAP_SYS_ADMIN)")
    res = run([TDTOP, "-b", "-o", "json", "-e", "cpu-clock", "-d", "0.3", "-n", "2"])
    root_costs = [json.loads(line)["self"].get("bpf_ns_per_switch")
                  for line in res.stdout.splitlines() if b'"interval"' in line]
    assert res.returncode == 0 and all(isinstance(c, (int, float)) for c in root_costs), \
        f"root: self-cost {root_costs}, rc {res.returncode}"


def test_cap_sys_admin_alone_suffices():
    """CAP_SYS_ADMIN implies both (the kernel's bpf_capable() and
    perfmon_capable() accept it), and tdtop's own check agrees."""
    require_root()
    if not SETPRIV:
        raise SkipTest("needs setpriv (util-linux)")
    ivs = _caps_run_matches_truth("sys_admin")
    assert all(isinstance(iv["self"].get("bpf_ns_per_switch"), (int, float))
               for iv, _ in ivs[1:]), "CAP_SYS_ADMIN may switch the run-time stats on"


def test_missing_caps_one_line_exit_1():
    """Without the capabilities (none, or only one of the two): exit 1 and
    one line on stderr naming what is needed; nothing on stdout."""
    require_root()
    for caps in ("", "bpf", "perfmon", "sys_resource,net_admin"):
        res = _as_user(caps, "-b", "-n", "1", "-d", "0.1")
        err = res.stderr.decode()
        if res.returncode == 127 and err.startswith("setpriv:"):
            continue    # this sandbox's bounding set lacks one of them
        assert res.returncode == 1, f"caps '{caps}': exit {res.returncode}, stderr {err!r}"
        assert res.stdout == b"", f"caps '{caps}': stdout {res.stdout[:200]!r}"
        lines = err.splitlines()
        assert len(lines) == 1 and "CAP_BPF" in err and "CAP_PERFMON" in err, \
            f"caps '{caps}': stderr {err!r}"
        assert not lines[0].startswith("tdtop: tdtop "), \
            (f"the program's name is said twice: {lines[0]!r} (src/main.c, main(): the "
             "message after privileged() fails)")


# ---- faults ----

def test_two_instances_at_once():
    """Two tdtops at the same time: each loads its own programs, both see
    the burn's CPU time and add up every interval; after both stop,
    nothing of either stays loaded."""
    require_root()
    before = {p[0] for p in bpf_progs()}
    with Workload("burn", 500, 2) as wl:
        wl.ready()
        with Tdtop("-e", ",".join(EVS), "-d", "0.3") as a, \
                Tdtop("-H", "-e", ",".join(EVS), "-d", "0.25") as b:
            a.wait_intervals(1)
            b.wait_intervals(1)
            progs_a, progs_b = _progs_of(a.pid), _progs_of(b.pid)
            for progs in (progs_a, progs_b):
                assert set(ALWAYS_PROGS) <= progs and len(progs & set(SWITCH_PROGS)) == 1, \
                    (progs_a, progs_b)
            wl.run()
            a.wait_more(2)
            b.wait_more(2)
            for td in (a, b):
                ivs = td.finish()
                assert_conservation(ivs, EVS)
                rows = rows_of(ivs, wl.pid, kind=None)
                # both started before the go: the whole burn is in their rows
                assert_close(f"burn seen by {td.cmd[3:]}", sum_rows(rows), wl.sched_ns, rel=0.02,
                             slack=5 * MS + wl.stolen_ns)
        wl.finish()
    left = wait_no_progs(-1, before)
    assert not left, f"programs left loaded: {left}"


EXEC_SCRIPT = r"""
import os, sys, threading, time
def spin(s):
    t = time.thread_time()
    while time.thread_time() - t < s:
        pass
wl, name, from_thread = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
sys.stdin.readline()                 # the go
def become_workload():
    spin(0.25)
    print(f"EXEC {threading.get_native_id()}", flush=True)
    os.execv(wl, [wl, "--now", "--name", name, "burn", "250"])
if from_thread:
    threading.Thread(target=become_workload).start()
    spin(0.15)
    time.sleep(60)
else:
    become_workload()
"""


class Exec(Child):
    """A python process that, on a line on stdin, burns CPU and then execs
    the workload (from the main thread or from a second thread)."""

    def __init__(self, name, from_thread):
        self._steal = steal_ns()
        super().__init__([sys.executable, "-c", EXEC_SCRIPT, helper_path("workload"), name,
                          "1" if from_thread else "0"], stdin=subprocess.PIPE)

    def go(self):
        self.proc.stdin.write(b"go\n")
        self.proc.stdin.flush()

    def lines_until_done(self, timeout=30):
        """stdout lines up to the workload's done report."""
        done = self.out.wait_for(lambda lines: any(b'"phase":"done"' in x for x in lines),
                                 timeout)
        if not done:
            self.fail(f"no done report within {timeout}s: {self.out.data()!r}")
        return [x.decode() for x in self.out.lines]

    def exit(self):
        """Ends the workload (stdin EOF) and returns its rusage CPU time in
        ns; self.stolen_ns is then the most the hypervisor took meanwhile."""
        self.proc.stdin.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            pid, status, ru = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                self.stolen_ns = stolen_since(self._steal)
                return int((ru.ru_utime + ru.ru_stime) * 1e9)
            time.sleep(0.02)
        raise AssertionError("workload did not exit after stdin EOF")


def test_exec_and_exit_mid_interval():
    """A process burns as python3, execs the workload mid-interval (which
    renames itself), burns again and exits mid-interval: its rows follow
    the new name, it is one row per interval, its CPU time over all
    intervals is its whole CPU time (rusage), and every interval adds up."""
    require_root()
    with Tdtop("-e", ",".join(EVS), "-d", "0.3") as td:
        td.wait_intervals(1)
        with Exec("wl-exec", from_thread=False) as ex:
            # python's start-up lands in an interval of its own, under its name
            td.wait_more(2)
            ex.go()
            ex.lines_until_done()
            n = len(td.intervals())
            td.wait_intervals(n + 1)
            time.sleep(0.13)                    # somewhere inside an interval
            truth = ex.exit()
            td.wait_exited(ex.pid)
        ivs = td.finish()
    assert_conservation(ivs, EVS)
    per_iv = [[r for r in rs if r["pid"] == ex.pid] for _, rs in ivs]
    assert all(len(rows) <= 1 for rows in per_iv), "more than one row per interval"
    rows = [r for rows in per_iv for r in rows]
    comms = [r["comm"] for r in rows]
    assert comms[0] == "python3" and comms[-1] == "wl-exec", f"names over time: {comms}"
    assert rows[-1].get("exited") is True, rows[-1]
    assert_close("exec'd process cpu_ns vs rusage", sum_rows(rows), truth, rel=0.02,
                 slack=5 * MS + ex.stolen_ns)


def test_exec_from_a_thread():
    """A second thread execs: the kernel turns it into the leader (it takes
    the leader's pid and start time). The thread's own entry must still be
    reported as exited once, not linger in tdtop's task map forever."""
    require_root()
    with Tdtop("-H", "-e", ",".join(EVS), "-d", "0.3") as td:
        td.wait_intervals(1)
        with Exec("wl-thrx", from_thread=True) as ex:
            ex.go()
            lines = ex.lines_until_done()
            tid = int(next(line.split()[1] for line in lines if line.startswith("EXEC")))
            td.wait_rows(lambda r: r.get("tid") == ex.pid and r["comm"] == "wl-thrx")
            ex.exit()
            td.wait_exited(ex.pid)
            n = len(td.intervals())
            td.wait_intervals(n + 3)
            ivs = td.intervals()
            mine = [r for _, rs in ivs for r in rs if r.get("tid") == tid]
            assert mine, f"thread {tid} never shown before its exec"
            exited = [r for r in mine if r.get("exited") is True]
            if not exited:
                stale = any(k["tid"] == tid for k, _ in task_map(td.proc.pid))
                raise AssertionError(
                    f"thread {tid} of {ex.pid} exec'd and became the leader, but its own row "
                    f"was never reported exited ({len(ivs) - n + 1} intervals after the exit);"
                    f" its entry is {'still' if stale else 'not'} in the kernel task map. "
                    "de_thread() gives the thread the leader's pid and start_time, so "
                    "on_free (bpf/tdtop.bpf.c) looks up the leader's key and the thread's "
                    "(tid, start_ns) entry is never marked exited")
        assert td.stop() == 0, td.stderr()


DONE = "TDTOP-DONE-42"      # echoed as $((6*7)): the typed command does not match


def _tdtop_pids(binary):
    real = os.path.realpath(binary)
    out = []
    for p in (d for d in os.listdir("/proc") if d.isdigit()):
        try:
            if os.path.realpath(f"/proc/{p}/exe") == real and not _is_zombie(int(p)):
                out.append(int(p))
        except OSError:
            continue
    return out


def _start_tui(pane, binary, tmp, extra=""):
    """tdtop's interactive view in the pane, stderr to a file; returns its pid."""
    before = set(_tdtop_pids(binary))
    err, rc = os.path.join(tmp, "err"), os.path.join(tmp, "rc")
    assert "'" not in binary + tmp, "quotes in paths"
    pane.line(f"sh -c 'trap \"\" HUP; {binary} -d 0.3 {extra} 2>{err}; "
              f"echo $? > {rc}'; echo TDTOP-DONE-$((6*7))")
    pane.wait_for(lambda s: any(line.lstrip().startswith("PID") and "COMM" in line for line in s),
                  20, "the table")
    pids = [p for p in _tdtop_pids(binary) if p not in before]
    assert len(pids) == 1, f"tdtop processes started: {pids}"
    return pids[0], err, rc


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return None


def test_tui_survives_vanishing_processes():
    """The interactive view looks up the owner of every process on screen
    in /proc; with thousands of short-lived processes most are gone by the
    lookup. It keeps drawing, shows them, quits cleanly, and (with the
    sanitizer build when there is one) nothing is reported."""
    binary = TDTOP_SAN if os.access(TDTOP_SAN, os.X_OK) else TDTOP
    with Pane() as pane, tempfile.TemporaryDirectory() as tmp, \
            Workload("spawn", 4000, 1500, name="wl-vanish") as wl:
        pid, err, rc = _start_tui(pane, binary, tmp, "-e cpu-clock")
        wl.ready()
        wl.go()
        pane.wait_for(lambda s: any("wl-child" in line for line in s), 30,
                      "short-lived children on screen")
        wl.done(timeout=90)
        pane.keys("q")
        pane.wait_for(lambda s: any(line.startswith(DONE) for line in s), 10, "exit after q")
        assert _read(rc) == "0\n", f"exit status {_read(rc)!r}, stderr {_read(err)!r}"
        text = _read(err) or ""
        assert not SANITIZER_REPORT.search(text), text[-4000:]
        wl.finish()


def test_sighup_restores_terminal():
    """SIGHUP while the terminal is still there: exit 0 and the shell's
    screen and tty modes are back."""
    with Pane() as pane, tempfile.TemporaryDirectory() as tmp:
        pid, err, rc = _start_tui(pane, TDTOP, tmp)
        os.kill(pid, signal.SIGHUP)
        pane.wait_for(lambda s: any(line.startswith(DONE) for line in s), 10, "exit after HUP")
        assert _read(rc) == "0\n", f"exit status {_read(rc)!r}, stderr {_read(err)!r}"
        assert_sane_terminal(pane)


def test_terminal_closed_with_sighup():
    """The terminal goes away (tmux session killed): bash, its session
    leader, passes SIGHUP on to tdtop, which exits 0 at once and leaves
    nothing loaded."""
    before = {p[0] for p in bpf_progs()}
    with Pane() as pane, tempfile.TemporaryDirectory() as tmp:
        pid, err, rc = _start_tui(pane, TDTOP, tmp)
        pane.kill()
        assert _wait_gone(pid, 10), "tdtop still running 10 s after its terminal went away"
        deadline = time.monotonic() + 10
        while _read(rc) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _read(rc) == "0\n", f"exit status {_read(rc)!r}, stderr {_read(err)!r}"
    left = wait_no_progs(-1, before)
    assert not left, f"programs left loaded: {left}"


def test_terminal_closed_without_sighup():
    """The terminal goes away but no SIGHUP reaches tdtop (its session
    leader ignores it): reads from the tty now return end-of-file. tdtop
    must notice and exit, not spin on the dead terminal."""
    with tempfile.TemporaryDirectory() as tmp:
        err, rc = os.path.join(tmp, "err"), os.path.join(tmp, "rc")
        before = set(_tdtop_pids(TDTOP))
        # exec: whatever shell tmux uses must not stay as the session leader
        cmd = (f"exec sh -c 'trap \"\" HUP; {TDTOP} -d 0.3 2>{err}; "
               f"echo $? > {rc}'")
        with Pane(command=cmd) as pane:
            pane.wait_for(lambda s: any(line.lstrip().startswith("PID") for line in s), 20,
                          "the table")
            pids = [p for p in _tdtop_pids(TDTOP) if p not in before]
            assert len(pids) == 1, pids
            pid = pids[0]
            pane.kill()
            try:
                if not _wait_gone(pid, 10):
                    t0 = _cpu_ticks(pid)
                    time.sleep(1)
                    t1 = _cpu_ticks(pid)
                    used = (t1 - t0) / os.sysconf("SC_CLK_TCK") if None not in (t0, t1) else 0
                    raise AssertionError(
                        f"tdtop still running 10 s after its terminal went away, using "
                        f"{100 * used:.0f}% of a CPU: poll() reports POLLIN|POLLHUP on the dead "
                        "tty and wait_input() (src/tui/tui.c) keeps going because POLLIN is set; "
                        "getch() then reads end-of-file as 'no key' and the loop spins")
            finally:
                if os.path.exists(f"/proc/{pid}"):
                    os.kill(pid, signal.SIGKILL)


def test_cpu_offline_and_back():
    """CPU 1 goes offline for a second while tdtop runs, then comes back.
    tdtop keeps running and every interval adds up; the time CPU 1 was
    away is nobody's (the interval totals stay within the CPUs that were
    there), and once it is back its counters count again."""
    require_root()
    require_cpus(2)
    online = "/sys/devices/system/cpu/cpu1/online"
    if not os.access(online, os.W_OK):
        raise SkipTest(f"{online} is not writable (CPU 1 cannot be hot-unplugged here)")
    with Tdtop("-e", ",".join(EVS), "-d", "0.3") as td:
        td.wait_intervals(2)
        try:
            with open(online, "w") as f:
                f.write("0")
        except OSError as e:
            raise SkipTest(f"the kernel refused to take CPU 1 offline: {e}")
        try:
            time.sleep(1.0)
        finally:
            with open(online, "w") as f:
                f.write("1")
        back = len(td.intervals())
        td.wait_intervals(back + 5)
        ivs = td.finish()
    assert_conservation(ivs, EVS, ncpus_check=False)
    problems = []
    for n, (iv, _) in enumerate(ivs):
        most = iv["ncpus"] * iv["interval_s"] * 1e9 * 1.02 + 2 * MS
        if iv["cpu_ns"]["total"] > most:
            problems.append(
                f"interval {n}: {iv['cpu_ns']['total'] / 1e9:.3f} CPU-seconds in "
                f"{iv['interval_s']:.3f} s on {iv['ncpus']} CPUs: the offline time was charged "
                "(charge() in bpf/tdtop.bpf.c takes now - last_ns of the CPU from before it "
                "went offline)")
    dead = []
    for n, (iv, _) in enumerate(ivs[back + 1:], back + 1):
        want = iv["ncpus"] * iv["interval_s"] * 1e9
        # the last interval, cut short at exit, may last a few ms: the
        # counters' and the interval's clocks differ by tens of µs there
        if iv["totals"]["cpu-clock"] < 0.98 * want - MS:
            dead.append(f"{n}: {iv['totals']['cpu-clock'] / 1e9:.3f} of {want / 1e9:.3f} s")
    if dead:
        problems.append(
            f"after CPU 1 came back the total cpu-clock stayed short in intervals "
            f"{', '.join(dead)}: CPU 1's perf events stayed off after the hotplug (the kernel "
            "does not re-enable per-CPU events; src/measure/collector.c opens them once), with no "
            "read error and running share 1")
    assert not problems, "; ".join(problems)


def test_other_perf_user_no_multiplexing():
    """perf stat counting software events on every CPU at the same time:
    software events are never multiplexed, so enabled == running (running
    share exactly 1) throughout and the burn is still measured exactly."""
    require_root()
    if not PERF:
        raise SkipTest("needs perf")
    many = ",".join(["cpu-clock", "task-clock", "context-switches", "page-faults",
                     "cpu-migrations", "minor-faults"] * 3)
    # perf counts while its workload, cat, runs: until stdin is closed
    with Child([PERF, "stat", "-a", "-e", many, "-x", ",", "--", "cat"],
               stdin=subprocess.PIPE) as perf:
        # perf execs its workload once the counters are open and enabled
        deadline = time.monotonic() + 20
        while not any(_comm(p) == "cat" for p in children(perf.pid)):
            if perf.proc.poll() is not None or time.monotonic() > deadline:
                perf.fail("perf stat did not start counting")
            time.sleep(0.05)
        with Workload("burn", 400) as wl:
            wl.ready()
            with Tdtop("-e", ",".join(EVS), "-d", "0.3") as td:
                td.wait_intervals(1)
                wl.run()
                td.wait_more(1)
                ivs = td.finish()
            wl.finish()
        perf.proc.stdin.close()
        assert perf.wait_exit() == 0, perf.stderr()[-2000:]
    # -x: count,unit,event,run time,percentage of time counted,...
    shares = [line.split(",")[4] for line in perf.stderr().splitlines()
              if line.count(",") >= 4 and line.split(",")[0].replace(".", "").isdigit()]
    assert shares and all(float(s) == 100.0 for s in shares), f"perf's own shares: {shares}"
    for n, (iv, _) in enumerate(ivs):
        assert all(v == 1 for v in iv["running"].values()), f"interval {n}: {iv['running']}"
    assert_conservation(ivs, EVS)
    rows = rows_of(ivs, wl.pid, kind=None)
    assert_close("burn with perf stat -a alongside", sum_rows(rows), wl.sched_ns, rel=0.02,
                 slack=5 * MS + wl.stolen_ns)


def test_capabilities_dropped_after_setup():
    """Once loaded and counting, tdtop keeps only CAP_PERFMON (reopening
    the counters of a CPU that comes back) and CAP_SYS_ADMIN (sampling the
    BPF statistics), and can gain nothing back."""
    require_root()
    with Tdtop("-e", "cpu-clock", "-d", "0.2") as td:
        td.wait_intervals(2)
        with open(f"/proc/{td.proc.pid}/status") as f:
            status = dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
        ivs = td.finish()
    eff, prm = int(status["CapEff"], 16), int(status["CapPrm"], 16)
    keep = (1 << 38) | (1 << 21)
    assert eff == keep and prm == keep, (hex(eff), hex(prm))
    assert status["NoNewPrivs"].strip() == "1"
    assert len(ivs) >= 2, "tdtop stopped working after dropping its capabilities"
