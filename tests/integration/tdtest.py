# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Shared helpers for the integration tests: running tdtop and the workload
helper with a timeout on every wait, parsing tdtop's JSON Lines into
intervals, and reading the kernel's own accounting (/proc, bpftool)."""
import glob
import json
import os
import re
import signal
import subprocess
import threading
import time


class SkipTest(Exception):
    """Raised by a test that cannot run here; counted as skipped."""


_TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TDTOP = os.environ.get("TDTOP", os.path.join(_TOP, "tdtop"))
# The AddressSanitizer build: its allocator keeps freed memory in
# quarantine (RSS grows) and valgrind cannot run it.
SANITIZED = os.path.basename(TDTOP).endswith("-san")
HELPERS = os.environ.get("HELPERS", os.path.join(_TOP, ".output", "std", "helpers"))
BPFTOOL = os.environ.get("BPFTOOL", "/usr/sbin/bpftool")
# Names of the BPF programs tdtop loads; none may outlive it.
# tdtop loads one of the two sched_switch programs (on_switch_mem where the
# kernel has bpf_rdonly_cast() and some event can be read from memory)
SWITCH_PROGS = ("on_switch", "on_switch_mem")
ALWAYS_PROGS = ("flush", "on_free", "on_rename", "on_exec")
PROG_NAMES = SWITCH_PROGS + ALWAYS_PROGS
NCPUS = os.cpu_count() or 1
# the kernel frees a reaped task (and tdtop sees its exit) within an RCU
# grace period: some ms, longer on a loaded machine
FREE_S = 0.25


def require_root():
    if os.geteuid() != 0:
        raise SkipTest("needs root (BPF and per-CPU perf events)")


def require_cpus(n):
    if len(os.sched_getaffinity(0)) < n:
        raise SkipTest(f"needs {n} CPUs")


def helper_path(name):
    path = os.path.join(HELPERS, name)
    assert os.access(path, os.X_OK), f"helper {path} missing: run `make helpers`"
    return path


def start_thread(target):
    """A daemon thread running target: a hung test cannot keep the suite alive."""
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


class LineReader:
    """Collects the lines of a pipe in a thread so that waits can time out."""

    def __init__(self, stream):
        self.lines = []
        self.eof = False
        self._stream = stream
        self._cond = threading.Condition()
        self._thread = start_thread(self._run)

    def _run(self):
        for line in iter(self._stream.readline, b""):
            with self._cond:
                self.lines.append(line)
                self._cond.notify_all()
        with self._cond:
            self.eof = True
            self._cond.notify_all()

    def wait_for(self, pred, timeout):
        """Waits until pred(lines) is true or EOF; returns pred's last value."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                got = pred(self.lines)
                left = deadline - time.monotonic()
                if got or self.eof or left <= 0:
                    return got
                self._cond.wait(min(left, 0.2))

    def join(self, timeout):
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def data(self):
        with self._cond:
            return b"".join(self.lines)


def parse_json_lines(lines):
    """Every line must be one JSON object; returns the list of them."""
    recs = []
    for i, raw in enumerate(lines):
        text = raw.decode("utf-8")  # strict: tdtop must emit valid UTF-8
        assert text.endswith("\n"), f"line {i + 1} not terminated: {text!r}"
        rec = json.loads(text)
        assert isinstance(rec, dict), f"line {i + 1} is not an object: {text!r}"
        recs.append(rec)
    return recs


def group_intervals(recs):
    """[(interval, [rows])] in output order; rows before any interval are an error."""
    out = []
    for rec in recs:
        if rec.get("type") == "interval":
            out.append((rec, []))
        else:
            assert out, f"row before the first interval: {rec}"
            out[-1][1].append(rec)
    return out


class Child:
    """A process with its stdout and stderr collected line by line, for a
    with block: leaving it kills the process if it still runs (a test
    failed before stopping it) and closes its pipes."""

    def __init__(self, cmd, stdin=subprocess.DEVNULL):
        self.cmd = [c if isinstance(c, (str, bytes)) else str(c) for c in cmd]
        self.proc = subprocess.Popen(self.cmd, stdin=stdin, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.pid = self.proc.pid
        self.out = LineReader(self.proc.stdout)
        self.err = LineReader(self.proc.stderr)
        self.rc = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._end()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if f:
                    f.close()
            except OSError:
                pass

    def _end(self):
        """Kills the process if it still runs; collects the rest of its output."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.out.join(5)
        self.err.join(5)

    def stderr(self):
        return self.err.data().decode("utf-8", "replace")

    def fail(self, what):
        self._end()
        cmd = " ".join(os.fsdecode(c) for c in self.cmd)
        raise AssertionError(f"{what} (rc={self.proc.returncode}, cmd={cmd}): "
                             f"stderr={self.stderr()[-2000:]!r}")

    def _wait(self, timeout, what):
        try:
            self.rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.fail(f"did not exit {what} within {timeout}s")
        self.out.join(5)
        self.err.join(5)
        return self.rc

    def wait_exit(self, timeout=20):
        """Waits until the process exits by itself; returns its exit code."""
        return self._wait(timeout, "by itself")

    def stop(self, sig=signal.SIGINT, timeout=20):
        """Sends sig and returns the exit code; fails if the process does not end."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self._wait(timeout, f"after signal {sig}")


class Tdtop(Child):
    """tdtop -b running in the background."""

    def __init__(self, *args, cpus=None, fmt="json", wrap=()):
        """wrap: a command that runs tdtop (setpriv ...)."""
        require_root()
        cmd = [*wrap, TDTOP, "-b", "-o", fmt, *args]
        if cpus is not None:
            cmd = ["taskset", "-c", cpus] + cmd
        super().__init__(cmd)
        self._cache = []

    def records(self):
        return parse_json_lines(list(self.out.lines))

    def intervals(self):
        return group_intervals(self.records())

    def _parsed(self, lines):
        """Parses the lines not seen yet (called with the reader's lock held);
        a line that does not parse is kept as None and reported by records()."""
        for raw in lines[len(self._cache):]:
            try:
                self._cache.append(json.loads(raw))
            except ValueError:
                self._cache.append(None)
        return self._cache

    def wait_intervals(self, n, timeout=20):
        """Waits until n interval lines were printed."""
        def count(lines):
            return sum(1 for r in self._parsed(lines)
                       if isinstance(r, dict) and r.get("type") == "interval") >= n
        if not self.out.wait_for(count, timeout):
            self.fail(f"no {n} interval(s) within {timeout}s")

    def wait_more(self, n, timeout=20):
        """Waits for n intervals more than were printed so far."""
        self.wait_intervals(len(self.intervals()) + n, timeout)

    def wait_rows(self, pred, timeout=20):
        """Waits until some row satisfies pred."""
        def seen(lines):
            return any(isinstance(r, dict) and r.get("type") != "interval" and pred(r)
                       for r in self._parsed(lines))
        if not self.out.wait_for(seen, timeout):
            self.fail(f"no matching row within {timeout}s")

    def wait_lines(self, pred, timeout=20):
        """Waits until pred(raw output lines) is true (any output format)."""
        if not self.out.wait_for(pred, timeout):
            self.fail(f"expected output missing after {timeout}s")

    def wait_exited(self, pid, timeout=20):
        """Waits for the final report of process pid (its leader's with -H)."""
        def gone(r):
            if r.get("exited") is not True or r.get("pid") != pid:
                return False
            return r.get("type") == "process" or r.get("tid") == pid
        self.wait_rows(gone, timeout)

    def finish(self, sig=signal.SIGINT):
        """Stops tdtop, which must exit 0; returns its intervals."""
        rc = self.stop(sig)
        assert rc == 0, f"tdtop exited with {rc} after signal {sig}: {self.stderr()!r}"
        return self.intervals()


class Workload(Child):
    """The workload helper: ready -> go -> done -> finish (see workload.c)."""

    def __init__(self, *steps, cpus=None, name=None, now=False, timeout=120):
        cmd = [helper_path("workload"), "--timeout", timeout]
        if name is not None:
            cmd += ["--name", name]
        if now:
            cmd.append("--now")
        cmd += steps
        if cpus is not None:
            cmd = ["taskset", "-c", cpus] + cmd
        self._steal = steal_ns()    # --now: the steps start at once
        super().__init__(cmd, stdin=subprocess.PIPE)   # taskset execs it: the same pid
        self.report = None

    def _line(self, n, timeout, what):
        if not self.out.wait_for(lambda lines: len(lines) >= n, timeout):
            self.fail(f"workload: no {what} line within {timeout}s")
        return json.loads(self.out.lines[n - 1])

    def ready(self, timeout=20):
        rep = self._line(1, timeout, "ready")
        assert rep["phase"] == "ready" and rep["pid"] == self.pid, rep
        return rep

    def go(self):
        self._sched = schedstat_ns(self.pid)
        self._steal = steal_ns()
        self.proc.stdin.write(b"g")
        self.proc.stdin.flush()
        self.go_time = time.time()

    def done(self, timeout=60):
        """Waits for the done report. Then self.sched_ns is the CPU time of
        the steps by the threads' schedstat, and self.stolen_ns what the
        hypervisor took from all vCPUs meanwhile at most: it is in tdtop's
        slices and not in the kernel's per-task CPU time, so comparisons of
        the two allow for it."""
        self.report = self._line(2, timeout, "done")
        self.done_time = time.time()
        self.stolen_ns = stolen_since(self._steal)
        if hasattr(self, "_sched"):
            self.sched_ns = schedstat_ns(self.pid) - self._sched
        assert self.report["phase"] == "done", self.report
        return self.report

    def run(self, timeout=60):
        """The steps from go to done."""
        self.go()
        return self.done(timeout)

    def finish(self, timeout=20):
        """Lets the workload exit (stdin EOF) and waits for it."""
        self.proc.stdin.close()
        rc = self.proc.wait(timeout)
        self.exit_time = time.time()
        assert rc == 0, f"workload exited with {rc}"

    def delta(self, *path):
        """after - before of one field of the done report, e.g. ("self", "minflt")."""
        a, b = self.report["after"], self.report["before"]
        for key in path:
            a, b = a[key], b[key]
        return a - b


def schedstat_ns(pid):
    """On-CPU ns of all live threads of pid (first field of each schedstat)."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        with open(path) as f:
            total += int(f.read().split()[0])
    return total


# /proc/stat counts in USER_HZ ticks
TICK_NS = 1000000000 // os.sysconf("SC_CLK_TCK")


def steal_ns():
    """Time the hypervisor took from all vCPUs so far (/proc/stat, whole
    ticks): tdtop's cpu_ns includes it, the kernel's per-task CPU time
    (CONFIG_PARAVIRT_TIME_ACCOUNTING) does not."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[8]) * TICK_NS


def stolen_since(start):
    """The most the hypervisor can have taken since steal_ns() was *start*:
    both readings are rounded down to a tick."""
    return steal_ns() - start + TICK_NS


def observe(workload, *tdtop_args, before=None, after=None, tdtop_cpus=None, until_exit=True):
    """Runs tdtop around the workload's steps, until tdtop reports the
    workload's process as exited. before/after are called (no argument)
    right before the go and right after the done report, while the workload
    is alive. Returns tdtop's intervals; the workload's report is in
    workload.report. until_exit=False: stop two intervals after the exit
    instead of waiting for its report."""
    workload.ready()
    with Tdtop(*tdtop_args, cpus=tdtop_cpus) as td:
        td.wait_intervals(1)
        if before:
            before()
        workload.run()
        if after:
            after()
        workload.finish()
        if until_exit:
            td.wait_exited(workload.pid)
        else:
            # e.g. a full task map: the workload may never get an entry
            td.wait_more(2)
        ivs = td.finish()
    # The exit is reported in the interval in which it happened.
    for iv, rows in ivs:
        if any(r["pid"] == workload.pid and r.get("exited") is True for r in rows):
            start = iv["ts"] - iv["interval_s"]
            assert start <= workload.exit_time + FREE_S, (
                f"exit of {workload.pid} reported in an interval starting "
                f"{start - workload.exit_time:.3f}s after it was reaped")
            break
    return ivs


def children(pid):
    """PIDs whose parent is pid."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # the comm field may hold spaces and parentheses: split after the last ')'
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(d))
    return out


def rows_of(intervals, pid, kind="process"):
    """The rows of process pid in every interval (of any type for kind None)."""
    return [r for _, rows in intervals for r in rows
            if r.get("pid") == pid and kind in (None, r["type"])]


def rows_seen(intervals, pid, kind="process"):
    """rows_of(), which must not be empty."""
    rows = rows_of(intervals, pid, kind)
    assert rows, f"no {kind or ''} row for pid {pid}"
    return rows


def sum_rows(rows, event=None):
    """Sum of cpu_ns, or of counts[event], over rows."""
    if event is None:
        return sum(r["cpu_ns"] for r in rows)
    return sum(r["counts"][event] for r in rows)


def assert_close(name, measured, truth, rel=0.01, slack=0):
    """|measured - truth| <= rel * |truth| + slack."""
    err = abs(measured - truth)
    bound = rel * abs(truth) + slack
    assert err <= bound, (f"{name}: tdtop {measured} vs truth {truth}: off by {err} "
                          f"({100.0 * err / max(abs(truth), 1):.3f}%), allowed {bound:.0f}")


def assert_conservation(intervals, events, ncpus_check=True):
    """Per interval: rows + idle + lost == totals for cpu_ns and every event,
    and the total cpu-clock is all CPUs for the interval. Rows are all of
    one kind (process, or thread with -H). On failure, every bad interval
    is listed with its difference, to tell a charge that moved to the next
    interval (differences of opposite sign that cancel) from a lost one."""
    assert intervals, "no intervals"
    bad = []
    for n, (iv, rows) in enumerate(intervals):
        kinds = {r["type"] for r in rows}
        assert len(kinds) <= 1, f"interval {n}: mixed row types {kinds}"
        for ev in events:
            diff = sum_rows(rows, ev) + iv["idle"][ev] + iv["lost"][ev] - iv["totals"][ev]
            if diff:
                bad.append((n, ev, diff))
        cpu = iv["cpu_ns"]
        diff = sum_rows(rows) + cpu["idle"] + cpu["lost"] - cpu["total"]
        if diff:
            bad.append((n, "cpu_ns", diff))
    assert not bad, (f"rows + idle + lost - totals != 0 in {len({b[0] for b in bad})} of "
                     f"{len(intervals)} intervals: " +
                     ", ".join(f"interval {n} {what} {diff:+d}" for n, what, diff in bad[:12]))
    if ncpus_check and "cpu-clock" in events:
        for n, (iv, _) in enumerate(intervals):
            assert_machine_total(iv, f"interval {n}")


def assert_machine_total(iv, what):
    """The interval's total cpu-clock is every CPU for the whole interval."""
    want = iv["ncpus"] * iv["interval_s"] * 1e9
    # CPUs are flushed one after the other around one timestamp: tens of µs
    # of skew, which matters only for a short last (interrupted) interval
    assert_close(f"{what}: totals cpu-clock vs ncpus * interval_s", iv["totals"]["cpu-clock"],
                 want, rel=0.01, slack=iv["ncpus"] * 500000)


class Sampler:
    """Samples f() with its wall-clock time every period s in a thread,
    to interpolate a cumulative kernel counter at tdtop's interval ends."""

    def __init__(self, f, period=0.02):
        self.samples = []
        self._f = f
        self._period = period
        self._stop = threading.Event()
        self._thread = start_thread(self._run)

    def _run(self):
        while not self._stop.is_set():
            try:
                self.samples.append((time.time(), self._f()))
            except OSError:
                return
            self._stop.wait(self._period)

    def stop(self):
        self._stop.set()
        self._thread.join(5)

    def at(self, t):
        """Linear interpolation at wall time t; None outside the samples."""
        s = self.samples
        for (t0, v0), (t1, v1) in zip(s, s[1:]):
            if t0 <= t <= t1:
                return v0 + (v1 - v0) * (t - t0) / (t1 - t0) if t1 > t0 else v0
        return None

    def rise(self, t0, t1):
        """The most a non-decreasing f() can have grown from wall time t0 to
        t1: from the last sample before t0 to the first after t1 (None
        outside the samples)."""
        before = [v for t, v in self.samples if t <= t0]
        after = [v for t, v in self.samples if t >= t1]
        return after[0] - before[-1] if before and after else None


def run(args, timeout=20, **kw):
    """tdtop (or anything) to completion; never hangs the suite."""
    return subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=timeout, **kw)


def _prog_owners():
    """{prog id: {pids}} from every process's BPF program and link fds
    (bpftool here cannot list owners)."""
    owners = {}
    for fd_dir in glob.glob("/proc/[0-9]*/fd"):
        pid = int(fd_dir.split("/")[2])
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"{fd_dir}/{fd}") not in ("anon_inode:bpf-prog",
                                                         "anon_inode:bpf_link"):
                    continue
                with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                    info = f.read()
            except OSError:
                continue
            for line in info.splitlines():
                key, _, val = line.partition(":")
                if key == "prog_id":
                    owners.setdefault(int(val), set()).add(pid)
    return owners


def bpf_progs():
    """[(id, name, {owner pids})] of every loaded BPF program."""
    res = run([BPFTOOL, "-j", "prog", "show"], timeout=30)
    assert res.returncode == 0, f"bpftool prog show failed: {res.stderr!r}"
    progs = json.loads(res.stdout or b"[]")
    owners = _prog_owners()
    return [(p["id"], p.get("name", ""), owners.get(p["id"], set())) for p in progs]


def tdtop_progs(exclude_ids=()):
    """tdtop's programs loaded now that were not in exclude_ids."""
    return [p for p in bpf_progs() if p[1] in PROG_NAMES and p[0] not in exclude_ids]


def task_map(td_pid):
    """The entries of tdtop's kernel task table: [(key, value)] as bpftool
    formats them (read from the maps tdtop td_pid holds open)."""
    out = []
    for path in glob.glob(f"/proc/{td_pid}/fdinfo/*"):
        try:
            with open(path) as f:
                m = re.search(r"map_id:\s+(\d+)", f.read())
        except OSError:
            continue
        if not m:
            continue
        res = run([BPFTOOL, "-j", "map", "dump", "id", m.group(1)], timeout=30)
        try:
            entries = json.loads(res.stdout or b"[]")
        except ValueError:
            continue
        for e in entries if isinstance(entries, list) else []:
            f = e.get("formatted", e) if isinstance(e, dict) else {}
            key, val = f.get("key"), f.get("value")
            if isinstance(key, dict) and isinstance(val, dict) and "start_ns" in key:
                out.append((key, val))
    return out


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def wait_no_progs(pid, before_ids, timeout=15):
    """Waits until no program named like tdtop's, loaded after before_ids
    was taken, remains except those owned by another live process (a
    concurrent tdtop). Returns the leftovers (empty on success)."""
    deadline = time.monotonic() + timeout
    while True:
        left = [p for p in tdtop_progs(before_ids) if not p[2] or pid in p[2]]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)
