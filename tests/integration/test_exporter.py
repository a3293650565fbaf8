# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""`tdtop exporter` as Prometheus meets it: a real Prometheus server scrapes
it (OpenMetrics and gzip, as it asks, and over TLS with a password) and its
API gives back a burn workload's CPU time in a test-made cgroup and every
family of the exposition; both formats pass promtool and the OpenMetrics
rules; process series go away after the exit, command-name series do not;
/healthz follows a collector stopped alone; bad clients (unknown paths, wrong
methods, oversized and odd requests, silent and trickling connections, 100
concurrent scrapes) neither crash it nor stall its measuring or the scrapes.
Loopback only; every wait is bounded."""
import base64
import ctypes
import gzip
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.client import HTTPConnection

from tdfixtures import Cgroups
from tdtest import TDTOP, Child, SkipTest, Workload, assert_close, require_root, rss_kib, run

MS = 1000000
OM_ACCEPT = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
PROMTOOL = shutil.which("promtool") or "/usr/bin/promtool"
DEPLOY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(port, path="/metrics", method="GET", accept=None, timeout=5, host="127.0.0.1",
         tls=None, auth=None):
    """(status, headers, body) of one request; status -1 when the server did not answer.
    tls: the CA file to check the server with (https); auth: (user, password)."""
    req = urllib.request.Request(f"{'https' if tls else 'http'}://{host}:{port}{path}",
                                 method=method)
    if accept:
        req.add_header("Accept", accept)
    if auth:
        req.add_header("Authorization",
                       "Basic " + base64.b64encode(":".join(auth).encode()).decode())
    ctx = ssl.create_default_context(cafile=tls) if tls else None
    try:
        with urllib.request.urlopen(req, timeout=timeout, context=ctx) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()
    except (urllib.error.URLError, OSError):
        return -1, {}, b""


_LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)')
_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*$")


def _unescape(v):
    return re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1), v)


def parse_samples(text):
    """{(name, frozenset(labels.items())): value} of an exposition; asserts the
    syntax of every sample line."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([^{ ]+)(?:\{(.*)\})? (\S+)$", line)
        assert m, f"bad sample line {line!r}"
        name, body, value = m.groups()
        assert _NAME.match(name), f"bad metric name in {line!r}"
        labels = {}
        pos = 0
        while body and pos < len(body):
            lm = _LABEL.match(body, pos)
            assert lm, f"bad labels in {line!r}"
            assert lm.group(1) not in labels, f"label repeated in {line!r}"
            labels[lm.group(1)] = _unescape(lm.group(2))
            pos = lm.end()
        key = (name, frozenset(labels.items()))
        assert key not in out, f"sample repeated: {line!r}"
        out[key] = float(value)
    return out


def series(samples, name, **labels):
    """Values of *name* whose labels include *labels*."""
    want = set(labels.items())
    return [v for (n, ls), v in samples.items() if n == name and want <= set(ls)]


# OpenMetrics names these families without the suffix their samples have
OM_SUFFIX = {"counter": "_total", "info": "_info", "gauge": ""}


def check_openmetrics(text):
    """OpenMetrics 1.0.0 rules promtool (which reads the text format) cannot check:
    one # EOF at the very end, a TYPE before each family's samples, counter and
    info families named without _total or _info and sampled with it, UNIT a
    suffix of the name."""
    assert text.endswith("# EOF\n"), f"no final # EOF: {text[-200:]!r}"
    assert text.count("# EOF") == 1, "# EOF more than once"
    types, seen_families = {}, []
    for line in text.splitlines()[:-1]:
        if line.startswith("# TYPE "):
            _, _, fam, typ = line.split(" ", 3)
            assert fam not in types, f"family {fam} declared twice"
            assert typ in OM_SUFFIX, line
            if OM_SUFFIX[typ]:
                assert not fam.endswith(OM_SUFFIX[typ]), f"{typ} family {fam} has its suffix"
            types[fam] = typ
            seen_families.append(fam)
        elif line.startswith("# UNIT "):
            _, _, fam, unit = line.split(" ", 3)
            assert fam == seen_families[-1] and fam.endswith("_" + unit), line
        elif line.startswith("# HELP "):
            assert line.split(" ", 3)[2] == seen_families[-1], line
        elif line.startswith("#"):
            raise AssertionError(f"unexpected comment {line!r}")
        else:
            name = re.match(r"[^{ ]+", line).group(0)
            fam = seen_families[-1] if seen_families else None
            want = fam + OM_SUFFIX[types[fam]] if fam in types else None
            assert name == want, f"sample {name} under family {fam} ({types.get(fam)})"
    parse_samples(text.replace("# EOF\n", ""))


def openmetrics_as_text(text):
    """The text format of an OpenMetrics exposition, so that promtool (which reads
    only that) can lint its names and types: families take their samples' names,
    an info is a gauge, UNIT and EOF go."""
    out, types = [], {}
    for line in text.splitlines():
        if line.startswith(("# UNIT ", "# EOF")):
            continue
        if line.startswith(("# TYPE ", "# HELP ")):
            _, kind, fam, rest = line.split(" ", 3)
            if kind == "TYPE":
                types[fam] = rest
            typ = types[fam]
            rest = "gauge" if kind == "TYPE" and typ == "info" else rest
            line = f"# {kind} {fam}{OM_SUFFIX[typ]} {rest}"
        out.append(line)
    return "\n".join(out) + "\n"


def promtool_check(text):
    res = subprocess.run([PROMTOOL, "check", "metrics"], input=text.encode(),
                         capture_output=True, timeout=30)
    assert res.returncode == 0, f"promtool: {res.stdout!r} {res.stderr!r}\n{text[:3000]}"


class ThreadStopped:
    """One thread of another process stopped with ptrace for a `with` block (a
    signal would stop them all): here the collector, which runs in the main
    thread, while the server's threads go on."""
    PTRACE_SEIZE, PTRACE_INTERRUPT, PTRACE_DETACH = 0x4206, 0x4207, 17
    WALL = 0x40000000

    def __init__(self, tid):
        self.tid = tid
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                                     ctypes.c_void_p]

    def _ptrace(self, req):
        if self.libc.ptrace(req, self.tid, None, None):
            raise OSError(ctypes.get_errno(), f"ptrace {req:#x} of {self.tid}")

    def __enter__(self):
        self._ptrace(self.PTRACE_SEIZE)
        self._ptrace(self.PTRACE_INTERRUPT)
        os.waitpid(self.tid, self.WALL)
        return self

    def __exit__(self, *exc):
        self._ptrace(self.PTRACE_DETACH)


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def sanitized(pid):
    """Does the process run with AddressSanitizer?"""
    with open(f"/proc/{pid}/maps") as f:
        return "libasan" in f.read()


class Exporter(Child):
    """`tdtop exporter` on a free loopback port, for a `with` block."""

    def __init__(self, *args, port=None, listen=True, host="127.0.0.1", tls=None, auth=None,
                 prefix=None):
        """prefix: the command instead of `tdtop exporter` (e.g. under setpriv)."""
        require_root()
        self.port = port or free_port()
        self.host = f"[{host}]" if ":" in host else host
        self.client = {"tls": tls, "auth": auth}
        cmd = list(prefix or [TDTOP, "exporter"])
        if listen:
            cmd += ["--listen", f"{self.host}:{self.port}"]
        super().__init__(cmd + list(args))

    def __enter__(self):
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.fail("exited before serving")
            if http(self.port, "/", timeout=1, host=self.host, **self.client)[0] == 200:
                return self
            time.sleep(0.1)
        self.fail("not serving within 15s")
        return self

    def scrape(self, accept=None):
        status, headers, body = http(self.port, accept=accept, **self.client)
        if status != 200:
            self.fail(f"scrape failed with {status}")
        return headers, body.decode("utf-8")

    def samples(self):
        return parse_samples(self.scrape()[1])

    def intervals(self):
        return series(self.samples(), "tdtop_intervals_total")[0]

    def wait_intervals(self, n, timeout=15):
        """Waits until n more intervals were published; returns the new count."""
        start = self.intervals()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.intervals()
            if got >= start + n:
                return got
            time.sleep(0.1)
        self.fail(f"published no {n} interval(s) within {timeout}s")
        return None


class Prometheus(Child):
    """A Prometheus server on loopback scraping one target every second."""

    def __init__(self, target_port, job_extra=""):
        """job_extra: more lines of the scrape job (e.g. scheme, basic_auth)."""
        if not os.access(PROMETHEUS, os.X_OK):
            raise SkipTest("prometheus not installed (Debian package prometheus)")
        self.dir = tempfile.mkdtemp(prefix="tdtest-prom-")
        self.port = free_port()
        cfg = os.path.join(self.dir, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                    "scrape_configs:\n  - job_name: tdtop\n    static_configs:\n"
                    f"      - targets: ['127.0.0.1:{target_port}']\n" + job_extra)
        super().__init__([PROMETHEUS, f"--config.file={cfg}",
                          f"--storage.tsdb.path={self.dir}/data",
                          f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"])

    def __enter__(self):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if http(self.port, "/-/ready", timeout=1)[0] == 200:
                return self
            time.sleep(0.2)
        self.__exit__()
        raise AssertionError(f"prometheus did not become ready: {self.stderr()[-2000:]!r}")

    def __exit__(self, *exc):
        super().__exit__(*exc)
        shutil.rmtree(self.dir, ignore_errors=True)

    def api(self, path, **params):
        url = f"{path}?{urllib.parse.urlencode(params)}" if params else path
        status, _, body = http(self.port, url, timeout=10)
        assert status == 200, f"prometheus {url}: {status} {body[:500]!r}"
        doc = json.loads(body)
        assert doc.get("status") == "success", doc
        return doc["data"]

    def query(self, q):
        """[(labels, value)] of an instant query."""
        return [(r["metric"], float(r["value"][1]))
                for r in self.api("/api/v1/query", query=q)["result"]]

    def wait_query(self, q, pred, timeout=20):
        """Polls q until pred(result) holds; returns the result."""
        deadline = time.monotonic() + timeout
        res = []
        while time.monotonic() < deadline:
            res = self.query(q)
            if pred(res):
                return res
            time.sleep(0.3)
        raise AssertionError(f"prometheus: {q} never satisfied the test within {timeout}s: "
                             f"{res!r}")


def test_prometheus_scrapes_cgroup_cpu_of_a_workload():
    """A burn workload in a test-made cgroup: Prometheus, scraping the exporter
    every second (OpenMetrics, which it asks for first), stores the cgroup's
    tdtop_cpu_seconds_total equal to the workload's own CPU time."""
    with Cgroups() as cg, Workload("burn", 800, cpus="0") as wl:
        wl.ready()
        cg.move(wl.pid)
        with Exporter("--by", "cgroup", "-e", "cpu-clock,page-faults", "-d", "0.5") as ex, \
                Prometheus(ex.port) as prom:
            prom.wait_query('up{job="tdtop"}', lambda r: r and r[0][1] == 1)
            wl.run()
            wl.finish()
            ex.wait_intervals(3)
            final = series(ex.samples(), "tdtop_cpu_seconds_total", cgroup=cg.rel())
            assert len(final) == 1, f"no series for {cg.rel()}: {ex.scrape()[1][:3000]}"
            assert_close(f"{cg.rel()} cpu seconds vs the workload's CPU time",
                         final[0] * 1e9, wl.delta("cpu_ns"), rel=0.02,
                         slack=20 * MS + wl.stolen_ns)
            q = f'tdtop_cpu_seconds_total{{cgroup="{cg.rel()}"}}'
            res = prom.wait_query(q, lambda r: r and abs(r[0][1] - final[0]) < 1e-9)
            labels = res[0][0]
            assert labels["job"] == "tdtop" and labels["cgroup"] == cg.rel(), labels
            # the same time as the cpu-clock event, in seconds of its own metric
            q = f'tdtop_event_seconds_total{{cgroup="{cg.rel()}",event="cpu-clock"}}'
            res = prom.wait_query(q, lambda r: len(r) == 1)
            assert_close("cpu-clock event vs cpu seconds", res[0][1] * 1e9, final[0] * 1e9,
                         rel=0.01, slack=2 * MS)
            q = f'tdtop_events_total{{cgroup="{cg.rel()}",event="cpu-clock"}}'
            assert not prom.query(q), "a time among the counts of tdtop_events_total"
            # the whole scrape parsed cleanly and the exporter's own metrics arrived
            targets = prom.api("/api/v1/targets")["activeTargets"]
            assert targets and targets[0]["health"] == "up" and not targets[0]["lastError"], \
                targets
            prom.wait_query("tdtop_intervals_total", lambda r: r and r[0][1] >= 3)
            # every family of the exposition arrived (OpenMetrics, gzip'ed, as it asks)
            for name in sorted({n for n, _ in ex.samples()}):
                prom.wait_query(f'{{__name__="{name}",job="tdtop"}}', lambda r: len(r) > 0)
            res = prom.wait_query('tdtop_build_info', lambda r: len(r) == 1)
            assert res[0][0]["version"] and res[0][0]["method"], res
            rate = prom.wait_query(f"rate(tdtop_cpu_seconds_total{{cgroup=\"{cg.rel()}\"}}[5s])",
                                   lambda r: len(r) == 1)
            assert 0 <= rate[0][1] <= 1.05, f"cgroup used more than one CPU: {rate}"
            # every query of the Grafana dashboard is valid PromQL on these series;
            # the top-10 CPU panel shows the workload's level alone
            depth = cg.rel().count("/")
            for title, expr in dashboard_queries():
                expr = (expr.replace("$__rate_interval", "5s").replace("$instance", ".*")
                        .replace("$cgroup", cg.rel()).replace("$depth", str(depth)))
                res = prom.query(expr)
                if "top 10" in title and "cgroup" in expr:
                    assert res and all(r[0]["cgroup"].count("/") == depth for r in res), res
            cpu = prom.query('topk(10, sum by (cgroup) (rate(tdtop_cpu_seconds_total[5s])))')
            assert any(r[0].get("cgroup") == "/" for r in cpu), cpu
            assert ex.stop() == 0, ex.stderr()


def dashboard_queries():
    """[(panel title, PromQL)] of deploy/grafana-dashboard.json."""
    with open(os.path.join(DEPLOY, "grafana-dashboard.json")) as f:
        dash = json.load(f)
    out = []
    for p in dash["panels"]:
        for t in p.get("targets", []):
            out.append((p["title"], t["expr"]))
    assert out, "dashboard without queries"
    return out


def test_text_and_openmetrics_formats():
    """Both formats pass `promtool check metrics` (OpenMetrics turned into the text
    format it reads); OpenMetrics, asked for with Accept, follows its own rules;
    both carry the same samples."""
    if not os.access(PROMTOOL, os.X_OK):
        raise SkipTest("promtool not installed (Debian package prometheus)")
    with Exporter("-e", "cpu-clock,context-switches", "-d", "0.5") as ex:
        ex.wait_intervals(2)
        headers, text = ex.scrape()
        assert headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8", headers
        promtool_check(text)
        assert "# EOF" not in text
        headers, om = ex.scrape(accept=OM_ACCEPT)
        assert headers["Content-Type"] == \
            "application/openmetrics-text; version=1.0.0; charset=utf-8", headers
        check_openmetrics(om)
        assert "# TYPE tdtop_build info\n" in om and "tdtop_build_info{" in om, om[:500]
        promtool_check(openmetrics_as_text(om))
        t, o = parse_samples(text), parse_samples(om.replace("# EOF\n", ""))
        assert {k[0] for k in t} == {k[0] for k in o}, (sorted({k[0] for k in t}),
                                                       sorted({k[0] for k in o}))
        # counters: a later scrape never shows less
        later = parse_samples(ex.scrape()[1])
        for key, v in t.items():
            if key[0].endswith("_total") and key in later:
                assert later[key] >= v, f"{key} went down: {v} -> {later[key]}"
        for name in ("tdtop_cpu_seconds_total", "tdtop_intervals_total",
                     "tdtop_context_switches_total", "tdtop_up", "tdtop_build_info"):
            assert any(k[0] == name for k in t), f"{name} missing:\n{text[:3000]}"
        assert series(t, "tdtop_up") == [1.0]
        # default view: per cgroup
        assert all(("cgroup" in dict(k[1])) for k in t if k[0] == "tdtop_cpu_seconds_total")
        assert ex.stop() == 0, ex.stderr()


def test_process_series_follow_exits():
    """--by process: the workload's series carries its pid and comm and its CPU
    time; it is gone once the exit was reported; --top bounds the series."""
    with Workload("burn", 300, name="tdexp-burn", cpus="0") as wl:
        wl.ready()
        with Exporter("--by", "process", "-e", "cpu-clock", "-d", "0.5") as ex:
            ex.wait_intervals(1)
            wl.run()
            ex.wait_intervals(2)
            got = series(ex.samples(), "tdtop_cpu_seconds_total", pid=str(wl.pid))
            assert len(got) == 1, f"no series for pid {wl.pid}"
            assert_close("process cpu seconds vs the workload's CPU time", got[0] * 1e9,
                         wl.delta("cpu_ns"), rel=0.02, slack=20 * MS + wl.stolen_ns)
            assert series(ex.samples(), "tdtop_cpu_seconds_total", pid=str(wl.pid),
                          comm="tdexp-burn")
            wl.finish()
            deadline = time.monotonic() + 15
            while series(ex.samples(), "tdtop_cpu_seconds_total", pid=str(wl.pid)):
                assert time.monotonic() < deadline, f"series of exited {wl.pid} still there"
                time.sleep(0.2)
            assert ex.stop() == 0, ex.stderr()
    with Exporter("--by", "process", "--top", "3", "-e", "cpu-clock", "-d", "0.3") as ex:
        ex.wait_intervals(3)
        s = ex.samples()
        n = len(series(s, "tdtop_cpu_seconds_total"))
        assert 1 <= n <= 3, f"{n} process series with --top 3"
        assert series(s, "tdtop_series")[0] >= n


def test_command_name_series():
    """--by comm: two processes of one name make one series, labelled comm only,
    holding both's CPU time, and it outlives their exits."""
    with Exporter("--by", "comm", "-e", "cpu-clock", "-d", "0.3") as ex:
        ex.wait_intervals(1)
        total = stolen = 0
        for _ in range(2):
            with Workload("burn", 200, name="tdexp-twin", cpus="0") as wl:
                wl.ready()
                wl.run()
                wl.finish()
                total += wl.delta("cpu_ns")
                stolen += wl.stolen_ns
        ex.wait_intervals(2)
        samples = ex.samples()
        got = series(samples, "tdtop_cpu_seconds_total", comm="tdexp-twin")
        assert len(got) == 1, f"want one series for both processes: {got}"
        # tdtop's slices include hypervisor steal, the workloads' own clocks do not
        assert_close("command's cpu seconds vs both workloads'", got[0] * 1e9, total,
                     rel=0.02, slack=40 * MS + stolen)
        assert not any("pid" in dict(k[1]) for k in samples), "a pid label with --by comm"
        assert ex.stop() == 0, ex.stderr()


def test_bad_clients_do_not_hurt():
    """Unknown paths 404, other methods 405, huge headers refused, garbage and
    silent connections ignored: meanwhile scrapes are answered and intervals
    keep coming. Then rounds of 100 concurrent scrapes: all answered, no
    crash, memory flat."""
    with Exporter("-e", "cpu-clock", "-d", "0.3") as ex:
        ex.wait_intervals(1)
        status, headers, body = http(ex.port, "/")
        assert status == 200 and b'href="/metrics"' in body, (status, body)
        for path in ("/nope", "/metrics/", "/metricsx", "/../etc/passwd"):
            assert http(ex.port, path)[0] == 404, path
        for method in ("POST", "PUT", "DELETE", "OPTIONS"):
            status, headers, _ = http(ex.port, method=method)
            assert status == 405, (method, status)
            assert headers.get("Allow") == "GET, HEAD", headers
        status, headers, body = http(ex.port, method="HEAD")
        assert status == 200 and not body and int(headers["Content-Length"]) > 0, headers

        # huge headers: refused (431) or cut off, never served or crashed on
        with socket.create_connection(("127.0.0.1", ex.port), timeout=5) as s:
            try:
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200000 +
                          b"\r\n\r\n")
                reply = s.recv(64)
            except OSError:
                reply = b""
            assert not reply or re.match(rb"HTTP/1\.[01] 4\d\d", reply), reply
        with socket.create_connection(("127.0.0.1", ex.port), timeout=5) as s:
            s.sendall(b"\x00\x01\x02 garbage\r\n\r\n")
            try:
                reply = s.recv(64)
            except OSError:
                reply = b""
            assert not reply or re.match(rb"HTTP/1\.[01] 4\d\d", reply), reply

        # clients that connect and send nothing, or half a request
        idle = []
        try:
            for i in range(8):
                s = socket.create_connection(("127.0.0.1", ex.port), timeout=5)
                if i % 2:
                    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
                idle.append(s)
            t0 = time.monotonic()
            before = ex.intervals()
            # one that waited would take the 10 s until they are dropped
            assert time.monotonic() - t0 < 5, "a scrape waited behind silent clients"
            after = ex.wait_intervals(3, timeout=15)
            assert after >= before + 3
        finally:
            for s in idle:
                s.close()

        assert ex.proc.poll() is None, "exporter died"
        ex.wait_intervals(1)
        rss0 = rss_kib(ex.proc.pid)
        failures = []

        def scrape_once(accept, src):
            # from 10 addresses: one may have 16 connections at once
            conn = HTTPConnection("127.0.0.1", ex.port, timeout=10,
                                              source_address=(src, 0))
            try:
                conn.request("GET", "/metrics", headers={"Accept": accept} if accept else {})
                r = conn.getresponse()
                status, body = r.status, r.read()
            except OSError:
                status, body = -1, b""
            finally:
                conn.close()
            if status != 200 or not body:
                failures.append(status)

        for rnd in range(5):
            threads = [threading.Thread(target=scrape_once,
                                        args=(OM_ACCEPT if i % 2 else None,
                                              f"127.0.0.{100 + i % 10}"), daemon=True)
                       for i in range(100)]
            t0 = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert not any(t.is_alive() for t in threads), "scrapes hung"
            assert time.monotonic() - t0 < 30
            assert not failures, f"round {rnd}: {len(failures)} scrapes failed: {failures[:10]}"
            if rnd == 0:
                rss1 = rss_kib(ex.proc.pid)   # pools and thread stacks warmed up
        rss2 = rss_kib(ex.proc.pid)
        # AddressSanitizer keeps freed memory in quarantine: no bound to check there,
        # its leak check at exit (exit status) stands in
        if not sanitized(ex.proc.pid):
            assert rss2 - rss1 < 4096, \
                f"RSS grew {rss1} -> {rss2} kB over 400 scrapes (start {rss0})"
            assert rss2 - rss0 < 16384, f"RSS grew {rss0} -> {rss2} kB"
        before = ex.intervals()
        assert ex.wait_intervals(2, timeout=15) >= before + 2, "collector stalled"
        assert ex.stop() == 0, ex.stderr()


def test_healthz_follows_the_collector():
    """/healthz is 200 while intervals come, 503 once the collector thread has
    been stopped for more than 3 delays (+1 s), and 200 again when it goes on;
    the server answers throughout, and tdtop_up says the same."""
    with Exporter("-e", "cpu-clock", "-d", "0.3") as ex:
        ex.wait_intervals(1)
        status, headers, body = http(ex.port, "/healthz")
        assert status == 200 and body == b"ok\n", (status, body)
        with ThreadStopped(ex.proc.pid):
            t0 = time.monotonic()
            while http(ex.port, "/healthz", timeout=2)[0] == 200:
                assert time.monotonic() - t0 < 10, "/healthz stayed 200 with the collector stopped"
                time.sleep(0.1)
            waited = time.monotonic() - t0
            assert waited > 1.5, f"stale after {waited:.1f}s, want 3 delays + 1 s"
            status, _, body = http(ex.port, "/healthz")
            assert status == 503 and b"stale" in body, (status, body)
            assert series(ex.samples(), "tdtop_up") == [0.0]
        ex.wait_intervals(1)
        assert http(ex.port, "/healthz")[0] == 200
        assert series(ex.samples(), "tdtop_up") == [1.0]
        assert ex.stop() == 0, ex.stderr()


def notify_socket(name):
    """A datagram socket bound where $NOTIFY_SOCKET=name points (a path, or
    an abstract name after '@'), as systemd listens."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name[1:] if name.startswith("@") else name)
    return sock


def recv_notify(sock, want, timeout=10):
    """The messages received until one equal to *want*, which is last."""
    got = []
    deadline = time.monotonic() + timeout
    while not got or got[-1] != want:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {want!r} within {timeout}s, got {got!r}")
        sock.settimeout(left)
        try:
            got.append(sock.recv(4096).decode())
        except socket.timeout:
            pass
    return got


def test_systemd_notify_ready_watchdog_stopping():
    """Under a service manager ($NOTIFY_SOCKET): READY=1 once the first
    interval is served, WATCHDOG=1 after each interval when $WATCHDOG_USEC
    asks for it (and none when not), STOPPING=1 on SIGTERM; an abstract
    socket name works as a path does."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "notify")
        with notify_socket(path) as sock, \
                Exporter("-e", "cpu-clock", "-d", "0.3",
                         prefix=["env", f"NOTIFY_SOCKET={path}", "WATCHDOG_USEC=2000000",
                                 TDTOP, "exporter"]) as ex:
            assert recv_notify(sock, "READY=1\nWATCHDOG=1") == ["READY=1\nWATCHDOG=1"]
            assert ex.intervals() >= 1
            assert recv_notify(sock, "WATCHDOG=1") == ["WATCHDOG=1"]
            assert recv_notify(sock, "WATCHDOG=1") == ["WATCHDOG=1"]
            assert ex.stop(signal.SIGTERM) == 0, ex.stderr()
            assert set(recv_notify(sock, "STOPPING=1")[:-1]) <= {"WATCHDOG=1"}
            assert "watchdog" not in ex.stderr(), ex.stderr()
    name = f"@tdtop-test-{os.getpid()}"
    with notify_socket(name) as sock, \
            Exporter("-e", "cpu-clock", "-d", "0.3",
                     prefix=["env", "-u", "WATCHDOG_USEC", f"NOTIFY_SOCKET={name}",
                             TDTOP, "exporter"]) as ex:
        assert recv_notify(sock, "READY=1") == ["READY=1"]
        ex.wait_intervals(2)
        assert ex.stop(signal.SIGTERM) == 0, ex.stderr()
        assert recv_notify(sock, "STOPPING=1") == ["STOPPING=1"]


def raw_request(port, data, timeout=5, src="127.0.0.1"):
    """The whole answer to *data* sent on a connection of its own, read until the
    server closes it (or the timeout)."""
    with socket.socket() as s:
        s.settimeout(timeout)
        s.bind((src, 0))
        s.connect(("127.0.0.1", port))
        try:
            s.sendall(data)
        except OSError:
            pass
        out = b""
        try:
            while True:
                got = s.recv(65536)
                if not got:
                    break
                out += got
        except OSError:
            pass
        return out


def test_requests_odd_and_oversized():
    """Requests today's clients and fuzzers send: 2,000 query arguments get 414,
    too large fields 431 (answers, not dropped connections); HTTP/1.1 without
    Host is 400; a second Accept field counts with the first; gzip is sent when
    asked for and is the same body; keep-alive serves several scrapes."""
    with Exporter("-e", "cpu-clock", "-d", "0.5") as ex:
        ex.wait_intervals(1)
        args = "&".join(f"a{i}=1" for i in range(2000))
        reply = raw_request(ex.port, f"GET /metrics?{args} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert reply.startswith(b"HTTP/1.1 414 "), reply[:200]
        args = "&".join("a" for i in range(2000))
        reply = raw_request(ex.port, f"GET /metrics?{args} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert reply.startswith(b"HTTP/1.1 414 "), reply[:200]
        reply = raw_request(ex.port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " +
                            b"a" * 200000 + b"\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 431 "), reply[:200]
        fields = b"".join(b"X-%d: 1\r\n" % i for i in range(100))
        reply = raw_request(ex.port, b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + fields + b"\r\n")
        assert reply.startswith(b"HTTP/1.1 431 "), reply[:200]
        reply = raw_request(ex.port, b"GET /metrics HTTP/1.1\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 400 "), reply[:200]
        reply = raw_request(ex.port, b"GET /metrics HTTP/1.0\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 200 ") and b"tdtop_up 1" in reply, reply[:200]

        two = (b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain;q=0.1\r\n"
               b"Accept: application/openmetrics-text;version=1.0.0\r\nConnection: close\r\n\r\n")
        reply = raw_request(ex.port, two)
        assert b"\r\nContent-Type: application/openmetrics-text; version=1.0.0" in reply, \
            reply[:300]

        gz = raw_request(ex.port, b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
                         b"Accept-Encoding: gzip\r\nConnection: close\r\n\r\n")
        head, _, body = gz.partition(b"\r\n\r\n")
        assert b"\r\nContent-Encoding: gzip\r\n" in head and b"Vary: Accept, Accept-Encoding" \
            in head, head
        text = gzip.decompress(body).decode()
        assert text.endswith("\n") and "tdtop_up 1\n" in text
        promtool_check(text) if os.access(PROMTOOL, os.X_OK) else None

        # three scrapes on one connection, the last asking to close it
        keep = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n" * 2 + \
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        reply = raw_request(ex.port, keep)
        assert reply.count(b"HTTP/1.1 200 OK\r\n") == 3 and reply.endswith(b"ok\n"), reply[-200:]
        assert ex.stop() == 0, ex.stderr()


def test_slow_clients_do_not_deny_scrapes():
    """320 connections from 20 addresses (16 each, the most one address may have)
    send a header byte a second: scrapes from another address are answered
    meanwhile, and the server closes the slow ones at their deadline (10 s)
    however the bytes keep coming. A 17th connection from one address is closed
    at once."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1024:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    with Exporter("-e", "cpu-clock", "-d", "0.5") as ex:
        ex.wait_intervals(1)
        slow = []
        try:
            for i in range(320):
                s = socket.socket()
                s.bind((f"127.0.0.{10 + i % 20}", 0))
                s.settimeout(5)
                s.connect(("127.0.0.1", ex.port))
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                s.setblocking(False)
                slow.append(s)
            t0 = time.monotonic()
            # one address's 17th connection: closed unanswered
            assert raw_request(ex.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                               src="127.0.0.10", timeout=3) == b""
            closed = set()
            scrapes = []
            while time.monotonic() - t0 < 14 and len(closed) < len(slow):
                for n, s in enumerate(slow):
                    if n in closed:
                        continue
                    try:
                        s.send(b"a")
                        if s.recv(1) == b"":
                            closed.add(n)
                    except BlockingIOError:
                        pass
                    except OSError:
                        closed.add(n)
                if time.monotonic() - t0 < 8:
                    t = time.monotonic()
                    status, _, body = http(ex.port, timeout=5)
                    scrapes.append((status, time.monotonic() - t))
                    assert status == 200 and b"tdtop_up 1" in body, (status, body[-200:])
                time.sleep(1)
            took = time.monotonic() - t0
            assert len(closed) == len(slow), \
                f"{len(slow) - len(closed)} slow connections still open after {took:.1f}s"
            assert took > 9, f"slow connections closed after {took:.1f}s, before their deadline"
            worst = max(t for _, t in scrapes)
            assert len(scrapes) >= 5 and worst < 2, f"scrapes beside slow clients: {scrapes}"
        finally:
            for s in slow:
                s.close()
        assert http(ex.port)[0] == 200
        assert ex.stop() == 0, ex.stderr()


def make_cert(d):
    """A self-signed certificate for 127.0.0.1 and its key, made with openssl: paths."""
    if not shutil.which("openssl"):
        raise SkipTest("openssl not installed")
    cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
    res = run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
               "ec_paramgen_curve:prime256v1", "-days", "2", "-nodes", "-subj", "/CN=localhost",
               "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key,
               "-out", cert])
    assert res.returncode == 0, res
    return cert, key


def bcrypt(password):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import crypt
    return crypt.crypt(password, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=2 ** 6))


def curl(*args):
    if not shutil.which("curl"):
        raise SkipTest("curl not installed")
    res = run(["curl", "-s", "-o", "/dev/stderr", "-w", "%{http_code}", *args], timeout=20)
    return res.returncode, res.stdout.decode(), res.stderr


def test_web_config_tls_and_basic_auth():
    """--web-config with a certificate and a user: HTTPS only (TLS 1.2 and later),
    every path asks for the password (401 with WWW-Authenticate, or 503 while
    a check is paced), curl and a real Prometheus (basic_auth, tls_config) get
    the metrics."""
    with tempfile.TemporaryDirectory() as d:
        cert, key = make_cert(d)
        cfg = os.path.join(d, "web.yml")
        with open(cfg, "w") as f:
            f.write(f"tls_server_config:\n  cert_file: cert.pem\n  key_file: {key}\n"
                    f"basic_auth_users:\n  prom: '{bcrypt('s3cret')}'\n")
        with Exporter("--web-config", cfg, "-e", "cpu-clock", "-d", "0.5", tls=cert,
                      auth=("prom", "s3cret")) as ex:
            assert "serving metrics on https://127.0.0.1:" in ex.stderr(), ex.stderr()
            ex.wait_intervals(1)
            url = f"https://127.0.0.1:{ex.port}"
            rc, code, body = curl("--cacert", cert, "-u", "prom:s3cret", f"{url}/metrics")
            assert rc == 0 and code == "200" and b"tdtop_up 1" in body, (rc, code, body[-300:])
            rc, code, body = curl("--compressed", "--cacert", cert, "-u", "prom:s3cret",
                                  f"{url}/healthz")
            assert code == "200" and body == b"ok\n", (code, body)
            for path in ("/metrics", "/healthz", "/", "/nope"):
                status, headers, _ = http(ex.port, path, tls=cert)
                assert status == 401 and headers.get("WWW-Authenticate", "").startswith(
                    "Basic realm="), (path, status, headers)
            time.sleep(0.3)
            assert http(ex.port, tls=cert, auth=("prom", "wrong"))[0] == 401
            assert http(ex.port, tls=cert, auth=("nobody", "s3cret"))[0] in (401, 503)
            time.sleep(0.3)
            assert http(ex.port, tls=cert, auth=("nobody", "s3cret"))[0] == 401
            # no plain HTTP, no TLS before 1.2
            assert http(ex.port, "/healthz")[0] == -1
            rc, code, _ = curl("--tls-max", "1.1", "--cacert", cert, "-u", "prom:s3cret",
                               f"{url}/healthz")
            assert rc != 0 and code == "000", (rc, code)
            job = (f"    scheme: https\n    tls_config:\n      ca_file: {cert}\n"
                   "    basic_auth:\n      username: prom\n      password: s3cret\n")
            with Prometheus(ex.port, job_extra=job) as prom:
                prom.wait_query('up{job="tdtop"}', lambda r: r and r[0][1] == 1)
                prom.wait_query("tdtop_up", lambda r: r and r[0][1] == 1)
            assert ex.stop() == 0, ex.stderr()


def test_web_config_errors():
    """A bad --web-config is a usage error: exit 2, one line naming the file."""
    with tempfile.TemporaryDirectory() as d:
        cfg = os.path.join(d, "web.yml")
        cases = [
            ("tls_server_config:\n  cert_file: nope.pem\n  key_file: nope.pem\n",
             "cannot read cert_file"),
            ("basic_auth_users:\n  prom: s3cret\n", "not a bcrypt hash"),
            ("tls_server_config:\n  client_ca_file: ca.pem\n", "not supported"),
            ("basic_auth_user:\n  prom: x\n", "unknown key 'basic_auth_user'"),
            ("tls_server_config: [\n", "line 2"),
        ]
        for text, msg in cases:
            with open(cfg, "w") as f:
                f.write(text)
            res = run([TDTOP, "exporter", "--web-config", cfg], timeout=20)
            err = res.stderr.decode("utf-8", "replace")
            assert res.returncode == 2 and msg in err and cfg in err and \
                len(err.splitlines()) == 1, (text, res.returncode, err)
        res = run([TDTOP, "exporter", "--web-config", os.path.join(d, "none.yml")], timeout=20)
        assert res.returncode == 2 and b"cannot read web config" in res.stderr, res


def test_unavailable_metric_said_once():
    """Without CAP_SYS_ADMIN the BPF statistics are refused: the gauge is absent,
    tdtop_metric_unavailable names it with the reason, and the log says so in
    one line, once, however many intervals pass."""
    setpriv = shutil.which("setpriv")
    if not setpriv:
        raise SkipTest("setpriv not installed (util-linux)")
    cmd = [setpriv, "--bounding-set=-sys_admin", "--inh-caps=-sys_admin", TDTOP, "exporter"]
    with Exporter("-e", "cpu-clock", "-d", "0.2", prefix=cmd) as ex:
        ex.wait_intervals(8)
        s = ex.samples()
        assert not series(s, "tdtop_bpf_seconds_per_switch"), "BPF statistics without SYS_ADMIN"
        assert series(s, "tdtop_metric_unavailable", metric="tdtop_bpf_seconds_per_switch",
                      reason="bpf_stats_refused") == [1.0], sorted(k for k in s if "unav" in k[0])
        lines = [ln for ln in ex.stderr().splitlines() if "tdtop_bpf_seconds_per_switch" in ln]
        assert len(lines) == 1 and "CAP_SYS_ADMIN" in lines[0], ex.stderr()
        assert ex.stop() == 0, ex.stderr()
    # with it, the gauge is there and nothing is logged
    with Exporter("-e", "cpu-clock", "-d", "0.2") as ex:
        ex.wait_intervals(3)
        s = ex.samples()
        assert series(s, "tdtop_bpf_seconds_per_switch")
        assert not series(s, "tdtop_metric_unavailable", metric="tdtop_bpf_seconds_per_switch")
        assert "not exported" not in ex.stderr(), ex.stderr()
        assert ex.stop() == 0, ex.stderr()


def test_listen_addresses():
    """Loopback by default on the documented port; IPv6 loopback when asked;
    a port in use is a runtime error with a clear message."""
    require_root()
    busy = socket.socket()
    try:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        res = run([TDTOP, "exporter", "--listen", f"127.0.0.1:{busy.getsockname()[1]}",
                   "-e", "cpu-clock"], timeout=30)
        err = res.stderr.decode("utf-8", "replace")
        assert res.returncode == 1 and "failed to listen on 127.0.0.1:" in err and \
            "in use" in err, (res.returncode, err)
    finally:
        busy.close()

    probe = socket.socket()
    try:
        probe.bind(("127.0.0.1", 9717))
        default_free = True
    except OSError:
        default_free = False
    finally:
        probe.close()
    if default_free:
        with Exporter("-e", "cpu-clock", port=9717, listen=False) as ex:
            assert http(9717, "/")[0] == 200
            # bound to loopback only
            if shutil.which("ss"):
                res = run(["ss", "-Hltn", "sport = :9717"])
                socks = [ln.split()[3] for ln in res.stdout.decode().splitlines()]
                assert socks == ["127.0.0.1:9717"], socks
            assert ex.stop() == 0, ex.stderr()

    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return    # no IPv6 loopback here
    with Exporter("-e", "cpu-clock", host="::1") as ex:
        assert http(ex.port, "/", timeout=1)[0] == -1, "IPv6 listener also took IPv4"
        assert ex.stop() == 0, ex.stderr()


def test_usage_errors():
    """Bad --listen and options that do not apply: exit 2 with one line, before
    anything is loaded or bound."""
    cases = [
        (["--listen", "localhost:9717"], "invalid IPv4 address"),
        (["--listen", ":9717"], "missing address"),
        (["--listen", "127.0.0.1:0"], "invalid port"),
        (["--listen", "::1:9717"], "brackets"),
        (["--listen", "[::1"], "closing"),
        (["--by", "thread"], "thread"),
        (["-o", "json"], "does not apply"),
        (["--web-config"], "needs a value"),
    ]
    for args, msg in cases:
        res = run([TDTOP, "exporter", *args], timeout=20)
        err = res.stderr.decode("utf-8", "replace")
        assert res.returncode == 2, f"{args}: exit {res.returncode}, want 2 ({err!r})"
        assert msg in err and len(err.splitlines()) == 1, f"{args}: {err!r}"
    res = run([TDTOP, "exporter", "--help"], timeout=20)
    assert res.returncode == 0 and b"--listen" in res.stdout and b"--web-config" in res.stdout
    # the exporter's own options stay its own
    for args in (["--by", "comm"], ["--web-config", "/dev/null"]):
        res = run([TDTOP, *args, "-b", "-n", "1"], timeout=20)
        assert res.returncode == 2 and len(res.stderr.splitlines()) == 1, (args, res)


def test_deploy_files():
    """The deploy files hold together: the scrape config passes promtool, the
    systemd unit passes systemd-analyze, the DaemonSet asks for what the
    exporter needs and listens on the pod IP, the dashboard reads tdtop's
    metrics. (Its PromQL is run against Prometheus in the scrape test.)"""
    if os.access(PROMTOOL, os.X_OK):
        res = run([PROMTOOL, "check", "config", os.path.join(DEPLOY, "prometheus.yml")])
        assert res.returncode == 0, res
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml:
        with open(os.path.join(DEPLOY, "kubernetes", "tdtop-exporter.yaml")) as f:
            docs = {d["kind"]: d for d in yaml.safe_load_all(f)}
        pod = docs["DaemonSet"]["spec"]["template"]["spec"]
        assert pod["hostPID"] is True
        (c,) = pod["containers"]
        caps = set(c["securityContext"]["capabilities"]["add"])
        assert {"BPF", "PERFMON"} <= caps and c["securityContext"]["capabilities"]["drop"] == \
            ["ALL"], caps
        assert c["securityContext"]["readOnlyRootFilesystem"] is True
        mounts = {m["mountPath"]: m for m in c["volumeMounts"]}
        assert mounts["/sys"]["readOnly"] and mounts["/sys/fs/cgroup"]["readOnly"], mounts
        args = c["args"]
        assert args[0] == "exporter" and args[args.index("--listen") + 1] == "$(POD_IP):9717"
        env = {e["name"]: e for e in c["env"]}
        assert env["POD_IP"]["valueFrom"]["fieldRef"]["fieldPath"] == "status.podIP"
        assert c["resources"]["limits"]["memory"] and c["resources"]["limits"]["cpu"]
        assert c["ports"][0]["name"] == "metrics" and c["ports"][0]["containerPort"] == 9717
        with open(os.path.join(DEPLOY, "kubernetes", "prometheus-scrape.yml")) as f:
            (job,) = yaml.safe_load(f)
        assert job["kubernetes_sd_configs"][0]["role"] == "pod", job
    analyze = shutil.which("systemd-analyze")
    if analyze:
        with open(os.path.join(DEPLOY, "tdtop-exporter.service")) as f:
            unit = f.read()
        assert "AmbientCapabilities=CAP_BPF CAP_PERFMON" in unit
        assert "ExecStart=/usr/local/bin/tdtop exporter --listen 127.0.0.1:9717" in unit
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "tdtop-exporter.service")
            with open(path, "w") as f:
                f.write(unit.replace("/usr/local/bin/tdtop", os.path.abspath(TDTOP)))
            res = run([analyze, "verify", path])
            assert res.returncode == 0 and not res.stderr.strip(), res
    names = " ".join(expr for _, expr in dashboard_queries())
    for metric in ("tdtop_topdown_slots_total", "tdtop_slots_total", "tdtop_cpu_seconds_total",
                   "tdtop_self_cpu_seconds_total", "tdtop_bpf_seconds_per_switch",
                   "tdtop_metric_unavailable"):
        assert metric in names, f"dashboard does not use {metric}"
    # no query names a metric the exporter does not have (any more)
    gone = ("tdtop_self_cpu_percent", "tdtop_scrape_duration_seconds")
    assert not any(g in names for g in gone) and "unit=" not in names.replace("systemd_unit=", "")
    if yaml:
        probes = [c["livenessProbe"]["httpGet"]["path"], c["readinessProbe"]["httpGet"]["path"]]
        assert probes == ["/healthz", "/healthz"], probes
        assert pod["priorityClassName"] == "system-node-critical", pod
        assert c["resources"]["requests"]["memory"] and c["resources"]["requests"]["cpu"]
        pdb = docs["PodDisruptionBudget"]
        assert pdb["spec"]["maxUnavailable"] and "minAvailable" not in pdb["spec"], pdb
        assert pdb["spec"]["selector"] == docs["DaemonSet"]["spec"]["selector"], pdb
    check_containerfile()
    with open(os.path.join(DEPLOY, "tdtop-exporter.service")) as f:
        unit = f.read()
    for line in ("Type=notify", "NotifyAccess=main", "WatchdogSec=30s"):
        assert re.search(rf"^{line}$", unit, re.M), f"unit without {line}"
    check_dashboard_depth()


def check_containerfile():
    """A digest-pinned base, every apt package at a version, two stages, OCI
    labels from build arguments, and a .dockerignore for the context."""
    with open(os.path.join(DEPLOY, "Containerfile")) as f:
        cf = f.read().replace("\\\n", " ")
    (base,) = re.findall(r"^ARG BASE=(\S+)$", cf, re.M)
    assert re.fullmatch(r"debian:bookworm-slim@sha256:[0-9a-f]{64}", base), base
    froms = re.findall(r"^FROM (\S+)", cf, re.M)
    assert froms == ["${BASE}", "${BASE}"], froms
    installs = re.findall(r"apt-get install -y --no-install-recommends ([^&]+)&&", cf)
    assert len(installs) == 2, installs
    for pkg in " ".join(installs).split():
        assert re.fullmatch(r"[a-z0-9.+-]+=[0-9][A-Za-z0-9.+:~-]*", pkg), f"{pkg} not versioned"
    for label in ("title", "description", "source", "licenses", "version", "revision"):
        assert f"org.opencontainers.image.{label}=" in cf, f"no OCI label {label}"
    for arg in ("VERSION", "REVISION", "SOURCE"):
        assert re.search(rf"^ARG {arg}=", cf, re.M), f"no ARG {arg}"
    with open(os.path.join(DEPLOY, "..", ".dockerignore")) as f:
        ignored = set(f.read().split())
    assert {".git", ".output", "tdtop", "tdtop-san", "**/*~", "**/*.swp"} <= ignored, ignored


def check_dashboard_depth():
    """The top-10 CPU panel sums cgroups of one depth (a dashboard variable):
    nested ones are not counted twice."""
    with open(os.path.join(DEPLOY, "grafana-dashboard.json")) as f:
        dash = json.load(f)
    (depth,) = [v for v in dash["templating"]["list"] if v["name"] == "depth"]
    assert not depth["multi"] and not depth["includeAll"] and depth["current"]["value"], depth
    top = [expr for title, expr in dashboard_queries()
           if "top 10" in title and "tdtop_cpu_seconds_total" in expr]
    assert top and all('cgroup=~"(/[^/]+){$depth}"' in e for e in top), top
