# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""tdtop record / report: a live recording replays to the numbers live mode
shows and the workload's own accounting; a killed recorder leaves a
readable file; bad files fail cleanly (a header only, compressed data cut
short); record refuses a format name as file and an existing file, and
fails on an unwritable path before loading anything; the owners of the
tasks are recorded; crafted recordings of every TopDown method replay to
hand-computed fractions (the end-to-end test of the TopDown path on
machines without a PMU), and --diff compares recordings of different
lengths per second, in the order of -s."""
import contextlib
import json
import os
import shlex
import tempfile
import time

from tdfixtures import Pane
from tdtest import (TDTOP, Child, SkipTest, Tdtop, Workload, assert_close, group_intervals,
                    parse_json_lines, require_root, rows_of, run, sum_rows)

MS = 1000000


def report_raw(*args, timeout=30):
    r = run([TDTOP, "report", *args], timeout=timeout)
    return r.returncode, r.stdout, r.stderr.decode()


def report(*args, timeout=30):
    rc, out, err = report_raw(*args, timeout=timeout)
    return rc, out.decode("utf-8", "replace"), err


def report_intervals(path, *args):
    rc, out, err = report_raw("-o", "json", *args, path)
    assert rc == 0, f"report failed ({rc}): {err}"
    return group_intervals(parse_json_lines(out.splitlines(keepends=True)))


def wait_recorded(path, n, timeout=20):
    """Waits until the recording at *path* holds n intervals (the recorder
    flushes each one as a whole)."""
    deadline = time.monotonic() + timeout
    while True:
        rc, out, err = report_raw("-o", "json", path)
        got = len(group_intervals(parse_json_lines(out.splitlines(keepends=True)))) \
            if rc == 0 else 0
        if got >= n:
            return
        assert time.monotonic() < deadline, \
            f"{path}: {got} of {n} intervals recorded after {timeout}s ({rc}: {err})"
        time.sleep(0.1)


def test_recording_replays_like_live_and_ground_truth():
    require_root()
    with tempfile.TemporaryDirectory() as d, Workload("burn", 400, "faults", 5000,
                                                      cpus="0") as wl:
        path = os.path.join(d, "run.jsonl.gz")
        wl.ready()
        evs = "cpu-clock,page-faults"
        with Child([TDTOP, "record", "-o", path, "-e", evs, "-d", "0.3"]) as rec, \
                Tdtop("-e", evs, "-d", "0.3") as live:
            live.wait_intervals(1)
            # both attached before the go: both see the whole workload
            wait_recorded(path, 1)
            wl.run()
            wl.finish()
            live.wait_exited(wl.pid)
            # a stop signal still records the interval it cut short
            assert rec.stop() == 0, rec.stderr()
            live_ivs = live.finish()
        assert "recorded" in rec.stderr()
        rep_ivs = report_intervals(path)
        for name, ivs in (("report", rep_ivs), ("live", live_ivs)):
            rows = rows_of(ivs, wl.pid)
            assert rows, f"{name}: no rows for the workload"
            assert_close(f"{name} cpu_ns vs the workload", sum_rows(rows), wl.delta("cpu_ns"),
                         slack=5 * MS + wl.stolen_ns)
            assert_close(f"{name} page-faults vs rusage", sum_rows(rows, "page-faults"),
                         wl.delta("self", "minflt") + wl.delta("self", "majflt"), slack=40)
            assert any(r.get("exited") for r in rows), f"{name}: exit not reported"
        # the same intervals seen twice agree: the two instances overlap in time
        assert_close("report vs live cpu_ns", sum_rows(rows_of(rep_ivs, wl.pid)),
                     sum_rows(rows_of(live_ivs, wl.pid)), slack=5 * MS)
        # conservation holds in the replay exactly as live
        for iv, rows in report_intervals(path, "--by", "thread"):
            assert sum(r["counts"]["cpu-clock"] for r in rows) + iv["idle"]["cpu-clock"] + \
                iv["lost"]["cpu-clock"] == iv["totals"]["cpu-clock"]
        # other views of the same file
        rc, out, err = report("-o", "csv", "--top", "3", "-s", "page-faults", path)
        assert rc == 0 and out.startswith("ts,type,schema,"), err


def test_killed_recorder_leaves_a_readable_file():
    require_root()
    with tempfile.TemporaryDirectory() as d:
        for name in ("plain.jsonl", "zipped.jsonl.gz"):
            path = os.path.join(d, name)
            with Child([TDTOP, "record", "-o", path, "-e", "cpu-clock", "-d", "0.1"]) as rec:
                wait_recorded(path, 3)
                rec.proc.kill()
            ivs = report_intervals(path)
            assert len(ivs) >= 3, f"{name}: only {len(ivs)} intervals after the kill"


def test_bad_recordings_fail_cleanly():
    with tempfile.TemporaryDirectory() as d:
        cases = {
            "empty": b"",
            "garbage": bytes(range(256)) * 40,
            "nul": b"\0" * 100,
            "future": b'{"type":"header","format":"tdtop-recording","version":99}\n',
            "notjson": b"hello\nworld\n",
        }
        for name, data in cases.items():
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(data)
            rc, out, err = report(path)
            assert rc == 1, f"{name}: rc {rc}"
            assert err.count("\n") == 1 and err.startswith("tdtop: "), f"{name}: {err!r}"
        rc, _, err = report(os.path.join(d, "missing"))
        assert rc == 1 and "missing" in err, err
        rc, _, err = report()
        assert rc == 2, err
        rc, _, err = report("--diff", os.path.join(d, "empty"))
        assert rc == 2 and "two" in err, err


# ---- crafted TopDown recordings ------------------------------------------------------------

def header(events, parts, method):
    """events: [(name, role, scale)], parts: [(pmu, method, lo, hi, width, n2)]."""
    return {
        "type": "header", "format": "tdtop-recording", "version": 1, "tdtop_version": "0.1.0",
        "kernel_release": "6.1.0", "cpu_model": "crafted", "ncpus": 1,
        "topdown_method": method,
        "events": [{"name": n, "pmu": "cpu", "type": 4, "config": i + 1, "config1": 0,
                    "config2": 0, "scale": sc, "unit": "", "leader": 0, "pinned": i == 0,
                    "role": role} for i, (n, role, sc) in enumerate(events)],
        "pmus": [{"name": p, "method": m, "ev_lo": lo, "ev_hi": hi, "slot_width": w,
                  "arm_n2_erratum": n2} for p, m, lo, hi, w, n2 in parts],
        "options": {"delay_s": 1.0, "group_by": "process", "cgroup": "", "cgroup_depth": 0,
                    "max_tasks": 1024, "pids": []},
    }


def recording(path, hdr, tasks, intervals=1, interval_s=1.0):
    """tasks: [(pid, comm, [counts per event])]; each interval the same, the
    tasks sharing its one CPU evenly, no idle."""
    n = len(hdr["events"])
    ns = int(interval_s * 10 ** 9)
    zero = {"cpu_ns": 0, "ev": [[0, 0, 0]] * n}
    total = [sum(t[2][i] for t in tasks) for i in range(n)]
    lines = [hdr]
    for seq in range(1, intervals + 1):
        lines.append({"type": "interval", "seq": seq, "ts": 1700000000.0 + seq * interval_s,
                      "interval_s": interval_s, "ncpus": 1, "switches": 10, "dropped": 0,
                      "read_errors": 0, "tasks": len(tasks), "idle": zero, "lost": zero,
                      "total": {"cpu_ns": ns, "ev": [[c, ns, ns] for c in total]}})
        for pid, comm, counts in tasks:
            lines.append({"type": "task", "tid": pid, "pid": pid, "start_ns": pid,
                          "leader_start_ns": pid, "cgroup_id": 0, "comm": comm, "pcomm": comm,
                          "exited": False, "cpu_ns": ns // len(tasks),
                          "ev": [[c, ns, ns] for c in counts]})
        lines.append({"type": "end", "seq": seq})
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


def check(path, expected, level=1):
    ivs = report_intervals(path, "--level", str(level))
    assert len(ivs) == 1
    iv, rows = ivs[0]
    by = {r["comm"]: r for r in rows}
    for comm, want in expected.items():
        td = by[comm]["topdown"]
        for key, val in want.items():
            if val is None:
                assert td[key] is None, (comm, key, td)
            else:
                assert td[key] is not None and abs(td[key] - val) < 1e-9, (comm, key, td[key], val)
    return iv


@contextlib.contextmanager
def crafted(events, parts, method, tasks):
    """The path of a recording of one interval of *tasks* by *events* on
    *parts* (see header() and recording()), for a with block."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "crafted.jsonl")
        recording(path, header(events, parts, method), tasks)
        yield path


# perf_metrics level 1: slots and one metric a node
PERF_METRICS_L1 = [("slots", "slots", 1), ("topdown-retiring", "retiring", 1),
                   ("topdown-bad-spec", "bad-spec", 1), ("topdown-fe-bound", "fe-bound", 1),
                   ("topdown-be-bound", "be-bound", 1)]


def test_crafted_perf_metrics_level1_and_level2():
    ev = PERF_METRICS_L1 + [
        ("topdown-heavy-ops", "heavy-ops", 1), ("topdown-br-mispredict", "br-mispredict", 1),
        ("topdown-fetch-lat", "fetch-lat", 1), ("topdown-mem-bound", "mem-bound", 1)]
    # metric sum 1000 (not slots): fractions are count / 1000
    tasks = [(10, "alu", [1020, 700, 50, 150, 100, 100, 30, 120, 60]),
             (11, "chase", [5000, 500, 250, 250, 4000, 0, 100, 100, 3500]),
             (12, "idle-ish", [500, 100, 100, 100, 200, 0, 0, 0, 0])]  # < 1000 slots
    with crafted(ev, [("cpu", "perf_metrics", 0, 9, 0, False)], "perf_metrics", tasks) as path:
        check(path, {
            "alu": {"retiring": 0.7, "bad_speculation": 0.05, "frontend_bound": 0.15,
                    "backend_bound": 0.1},
            "chase": {"retiring": 0.1, "bad_speculation": 0.05, "frontend_bound": 0.05,
                      "backend_bound": 0.8},
            "idle-ish": {"retiring": None, "backend_bound": None},
        })
        iv = check(path, {
            "alu": {"heavy_operations": 0.1, "light_operations": 0.6,
                    "branch_mispredicts": 0.03, "machine_clears": 0.02,
                    "fetch_latency": 0.12, "fetch_bandwidth": 0.03,
                    "memory_bound": 0.06, "core_bound": 0.04},
            "chase": {"memory_bound": 0.7, "core_bound": 0.1},
        }, level=2)
        assert iv["method"] == "perf_metrics" and iv["level"] == 2


def test_crafted_intel_generic_with_scale():
    ev = [("topdown-total-slots", "total-slots", 4), ("topdown-slots-issued", "slots-issued", 1),
          ("topdown-slots-retired", "slots-retired", 1),
          ("topdown-fetch-bubbles", "fetch-bubbles", 1),
          ("topdown-recovery-bubbles", "recovery-bubbles", 4)]
    # 1000 cycles * 4 = 4000 slots; retired 2000 -> 0.5; fetch 400 -> 0.1;
    # bad spec = (2400 - 2000 + 4 * 50) / 4000 = 0.15; backend the rest 0.25
    with crafted(ev, [("cpu", "intel_generic", 0, 5, 0, False)], "intel_generic",
                 [(20, "skl", [1000, 2400, 2000, 400, 50])]) as path:
        check(path, {"skl": {"retiring": 0.5, "frontend_bound": 0.1, "bad_speculation": 0.15,
                             "backend_bound": 0.25}})


def test_crafted_hybrid_merges_by_slots():
    ev = PERF_METRICS_L1 + [
        ("cpu_atom/topdown-retiring/", "retiring", 1),
        ("cpu_atom/topdown-fe-bound/", "fe-bound", 1),
        ("cpu_atom/topdown-be-bound/", "be-bound", 1), ("cpu_atom/cycles/", "cycles", 1)]
    parts = [("cpu_core", "perf_metrics", 0, 5, 0, False),
             ("cpu_atom", "intel_atom", 5, 9, 5, False)]
    # P-core: 6000 slots, retiring 0.5, bad 0.1, fe 0.2, be 0.2 (sum of metrics 6000)
    # E-core: 5 * 400 = 2000 slots, retiring 1000 -> 0.5, fe 200 -> 0.1, be 600 -> 0.3,
    #         bad spec the rest 0.1.  Merged by slots (6000 + 2000):
    #         retiring 0.5, bad 0.1, fe (1200 + 200) / 8000 = 0.175, be (1200 + 600) / 8000
    with crafted(ev, parts, "perf_metrics+intel_atom",
                 [(30, "both", [6000, 3000, 600, 1200, 1200, 1000, 200, 600, 400])]) as path:
        check(path, {"both": {"retiring": 0.5, "bad_speculation": 0.1,
                              "frontend_bound": 0.175, "backend_bound": 0.225}})


def test_crafted_amd_zen4():
    ev = [("ls_not_halted_cyc", "cycles", 1), ("de_src_op_disp.all", "dispatched", 1),
          ("ex_ret_ops", "retired-ops", 1), ("no_ops_from_frontend", "no-ops-frontend", 1),
          ("backend_stalls", "backend-stalls", 1), ("smt_contention", "smt-contention", 1)]
    # 6 * 1000 = 6000 slots: retiring 3000 -> 0.5, bad spec (3600 - 3000) -> 0.1,
    # frontend 1200 -> 0.2, backend 900 -> 0.15, smt 300 -> 0.05
    with crafted(ev, [("cpu", "amd_zen", 0, 6, 6, False)], "amd_zen",
                 [(40, "zen", [1000, 3600, 3000, 1200, 900, 300])]) as path:
        check(path, {"zen": {"retiring": 0.5, "bad_speculation": 0.1, "frontend_bound": 0.2,
                             "backend_bound": 0.15}})
        rc, out, err = report("-o", "json", path)
        assert '"smt_contention":0.05' in out.replace(" ", ""), out


def test_crafted_arm_neoverse():
    ev = [("cpu_cycles", "cycles", 1), ("op_retired", "op-retired", 1),
          ("op_spec", "op-spec", 1), ("stall_slot", "stall-slot", 1),
          ("stall_slot_frontend", "stall-slot-fe", 1),
          ("stall_slot_backend", "stall-slot-be", 1)]
    # 5 * 1000 slots; stall 2000 (fe 500, be 1500); op_retired / op_spec = 0.75
    # frontend 0.1, backend 0.3, retiring 0.75 * 0.6 = 0.45, bad spec 0.25 * 0.6 = 0.15
    with crafted(ev, [("armv8_pmuv3_0", "arm", 0, 6, 5, False)], "arm",
                 [(50, "arm", [1000, 3000, 4000, 2000, 500, 1500])]) as path:
        check(path, {"arm": {"frontend_bound": 0.1, "backend_bound": 0.3, "retiring": 0.45,
                             "bad_speculation": 0.15}})


# ---- what report refuses, and diff -----------------------------------------------------------

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "recordings")


def _one_error(rc, err, want_rc, *words):
    assert rc == want_rc, f"rc {rc}, want {want_rc}: {err!r}"
    assert err.count("\n") == 1 and err.startswith("tdtop: "), err
    for w in words:
        assert w in err, f"{w!r} not in {err!r}"


def test_report_without_a_complete_interval_fails():
    with open(os.path.join(FIXTURES, "basic.jsonl"), "rb") as f:
        lines = f.read().splitlines(keepends=True)
    with open(os.path.join(FIXTURES, "basic.jsonl.gz"), "rb") as f:
        gz = f.read()
    with tempfile.TemporaryDirectory() as d:
        cases = {
            "header-only.jsonl": (lines[0], ["no complete interval", "only its header"]),
            "cut.jsonl": (b"".join(lines[:3]), ["no complete interval", "truncated at line 4"]),
            # a gzip stream that ends inside the header: not "empty file"
            "cut.jsonl.gz": (gz[:40], ["compressed data ends before the header"]),
            "bad.jsonl.gz": (gz[:12] + bytes(b ^ 0x55 for b in gz[12:-8]) + gz[-8:],
                             ["failed to decompress"]),
        }
        for name, (data, words) in cases.items():
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(data)
            for fmt in ("text", "json", "csv"):
                rc, out, err = report("-o", fmt, path)
                _one_error(rc, err, 1, name, *words)
                assert not out, f"{name}: {out!r}"
            rc, out, err = report("--diff", path, os.path.join(FIXTURES, "basic.jsonl"))
            _one_error(rc, err, 1, name, *words)


def test_report_sort_key_without_values_is_a_usage_error():
    basic = os.path.join(FIXTURES, "basic-v2.jsonl")
    rc, out, err = report("-s", "backend", basic)
    _one_error(rc, err, 2, "'backend'", "TopDown is not measured", "available: cpu, pid, comm")
    assert not out
    rc, out, err = report("--diff", "-s", "pid", basic, basic)
    _one_error(rc, err, 2, "'pid'")
    rc, out, err = report("-s", "nonsense", basic)
    _one_error(rc, err, 2, "unknown sort key 'nonsense'")


def _diff_json(*args):
    rc, out, err = report("--diff", "-o", "json", *args)
    assert rc == 0, err
    return [json.loads(line) for line in out.splitlines()], err


def test_diff_compares_per_second_in_the_order_of_sort():
    ev = [("cpu-clock", None, 1), ("page-faults", None, 1)]
    hdr = header(ev, [], "none")
    for e in hdr["events"]:
        e.pop("role")
        e["type"], e["pmu"] = 1, "software"
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.jsonl"), os.path.join(d, "b.jsonl")
        # the same half CPU each, over 2 s and 6 s; "faulty" faults 10x more per second after
        recording(a, hdr, [(10, "steady", [0, 100]), (20, "faulty", [0, 100])], intervals=2)
        recording(b, hdr, [(10, "steady", [0, 100]), (20, "faulty", [0, 1000])], intervals=3,
                  interval_s=2.0)
        diffs, err = _diff_json(a, b)
        assert "the recordings last 2.0 s and 6.0 s: compared per second" in err, err
        by = {x["key"]: x for x in diffs}
        for key in ("steady", "faulty"):
            assert by[key]["before"]["cpu_pct"] == by[key]["after"]["cpu_pct"] == 50, by[key]
            assert by[key]["change"]["cpu_pct"] == 0 and by[key]["schema"] == 1, by[key]
        # the order follows -s: the rate of page faults changed for "faulty" only
        diffs, _ = _diff_json("-s", "page-faults", a, b)
        assert [x["key"] for x in diffs] == ["faulty", "steady"], diffs
        diffs, _ = _diff_json("-s", "comm", b, a)
        assert [x["key"] for x in diffs] == ["faulty", "steady"], diffs
        rc, out, err = report("--diff", "-o", "csv", a, b)
        assert rc == 0 and out.startswith("key,before.cpu_ns,before.cpu_pct,"), out
        # a TopDown recording against one without: said, and not compared
        td = os.path.join(d, "td.jsonl")
        recording(td, header([("slots", "slots", 1), ("topdown-retiring", "retiring", 1),
                              ("topdown-bad-spec", "bad-spec", 1),
                              ("topdown-fe-bound", "fe-bound", 1),
                              ("topdown-be-bound", "be-bound", 1)],
                             [("cpu", "perf_metrics", 0, 5, 0, False)], "perf_metrics"),
                  [(10, "steady", [1000, 700, 50, 150, 100])], intervals=2)
        diffs, err = _diff_json(td, a)
        assert "was measured with TopDown method perf_metrics" in err and "with none" in err, err
        assert "retiring" not in diffs[0]["change"], diffs
        rc, _, err = report("--diff", "-s", "backend", td, a)
        _one_error(rc, err, 2, "'backend'", "a.jsonl")


# ---- record: where it writes -------------------------------------------------------------------

def test_record_refuses_a_format_name_as_file():
    for fmt in ("csv", "json", "text"):
        r = run([TDTOP, "record", "-o", fmt, "-n", "1"])
        err = r.stderr.decode()
        _one_error(r.returncode, err, 2, f"'{fmt}' is an output format", f"tdtop -o {fmt}",
                   f"-o ./{fmt}")
        assert not os.path.exists(fmt)


def test_record_keeps_an_existing_file_without_force():
    require_root()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "old.jsonl")
        with open(path, "w") as f:
            f.write("precious\n")
        r = run([TDTOP, "record", "-o", path, "-e", "cpu-clock", "-n", "1", "-d", "0.1"])
        _one_error(r.returncode, r.stderr.decode(), 1, "exists", "--force")
        with open(path) as f:
            assert f.read() == "precious\n"
        # a --force run that fails to start keeps it too
        r = run([TDTOP, "record", "-o", path, "--force", "-e", "cpu-clock", "-s", "backend",
                 "-n", "1"])
        assert r.returncode == 2, r.stderr
        with open(path) as f:
            assert f.read() == "precious\n"
        r = run([TDTOP, "record", "-o", path, "--force", "-e", "cpu-clock", "-n", "2",
                 "-d", "0.1"])
        assert r.returncode == 0, r.stderr
        assert len(report_intervals(path)) == 2
        # nothing recorded: no empty file left behind
        fresh = os.path.join(d, "fresh.jsonl")
        r = run([TDTOP, "record", "-o", fresh, "-e", "cpu-clock", "-s", "backend", "-n", "1"])
        assert r.returncode == 2 and not os.path.exists(fresh), r.stderr


def test_record_opens_its_output_before_loading():
    """An unwritable path fails at once, before privileges are even
    checked: as nobody, the error is about the file, not about root."""
    require_root()
    setpriv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    if run(setpriv + ["true"]).returncode:
        raise SkipTest("setpriv cannot switch to nobody here")
    r = run(setpriv + [TDTOP, "record", "-o", "/nonexistent/dir/x.jsonl", "-n", "1"])
    _one_error(r.returncode, r.stderr.decode(), 1, "failed to open /nonexistent/dir/x.jsonl")
    # the check of the path comes after the command line's
    r = run(setpriv + [TDTOP, "record", "-o", "/nonexistent/dir/x.jsonl", "-d", "0"])
    assert r.returncode == 2, r.stderr


def test_record_names_the_owners():
    """Each task line names its owner; the workload runs as root here."""
    require_root()
    with tempfile.TemporaryDirectory() as d, Workload("burn", 200) as wl:
        path = os.path.join(d, "own.jsonl")
        wl.ready()
        with Child([TDTOP, "record", "-o", path, "-e", "cpu-clock", "-d", "0.2"]) as rec:
            wait_recorded(path, 1)
            wl.run()
            wl.finish()
            wait_recorded(path, 3)
            assert rec.stop() == 0, rec.stderr()
        with open(path) as f:
            lines = [json.loads(line) for line in f]
        assert lines[0]["version"] == 2
        mine = [t for t in lines if t["type"] == "task" and t["pid"] == wl.pid]
        assert mine, "no task line of the workload"
        assert all(t["uid"] == 0 and t["user"] == "root" for t in mine), mine[:2]
        assert all((t["uid"] == 4294967295) == (t["user"] == "") for t in lines
                   if t["type"] == "task")


def test_record_progress_on_a_terminal():
    """On a terminal: where it records, how to stop, the intervals so far;
    into a pipe only the final line."""
    require_root()
    with tempfile.TemporaryDirectory() as d, Pane() as pane:
        path = os.path.join(d, "p.jsonl")
        cmd = shlex.join([TDTOP, "record", "-o", path, "-e", "cpu-clock", "-d", "0.2", "-n", "5"])
        pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
        pane.wait_for(lambda s: any(f"recording to {path}, Ctrl-C to stop: 3 intervals" in line
                                    for line in s), 20, "the progress line")
        screen = pane.wait_for(lambda s: any("TDTOP-EXIT=0" in line for line in s) and s, 20,
                               "the exit")
        text = "\n".join(screen)
        assert "Ctrl-C to stop: 5 intervals" in text and "recorded 5 intervals" in text, text
        r = run([TDTOP, "record", "-o", os.path.join(d, "q.jsonl"), "-e", "cpu-clock",
                 "-d", "0.1", "-n", "2"])
        err = r.stderr.decode()
        assert r.returncode == 0 and "recording to" not in err and "recorded 2" in err, err
