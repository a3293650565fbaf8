# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Cgroup attribution: workloads moved into cgroups made by the test under
the cgroup v2 mount; per-cgroup sums against the sums of their tasks and the
workloads' own accounting, the --cgroup filter, and removed cgroups."""
import os
import time

from tdfixtures import Cgroups
from tdtest import TDTOP, Tdtop, Workload, assert_close, require_root, rows_of, run, sum_rows

MS = 1000000


def cgroup_rows(ivs, path):
    return [r for _, rows in ivs for r in rows if r["type"] == "cgroup" and r["cgroup"] == path]


def test_cgroup_sums_match_tasks_and_ground_truth():
    """Two burning workloads in nested cgroups: each cgroup row equals the
    sum of its tasks and the workload's own CPU time; the parent row is the
    sum of its children in every interval."""
    with Cgroups("a", "a/a1", "b") as cg, \
            Workload("burn", 300, cpus="0") as wa, Workload("burn", 200, cpus="0") as wb:
        wa.ready()
        wb.ready()
        cg.move(wa.pid, "a/a1")
        cg.move(wb.pid, "b")
        with Tdtop("--by", "cgroup", "-c", cg.top, "-e", "cpu-clock", "-d", "0.3") as td:
            td.wait_intervals(1)
            wa.go()
            wb.go()
            wa.done()
            wb.done()
            wa.finish()
            wb.finish()
            td.wait_more(2)
            ivs = td.finish()
        for rel, wl in (("a/a1", wa), ("b", wb)):
            rows = cgroup_rows(ivs, cg.rel(rel))
            assert rows, f"no rows for {cg.rel(rel)}: {[r.get('cgroup') for _, rs in ivs for r in rs]}"
            assert_close(f"{rel} cpu_ns vs the workload's CPU time", sum_rows(rows),
                         wl.delta("cpu_ns"), slack=5 * MS + wl.stolen_ns)
            assert rows[0].get("cgroup_id") == os.stat(cg.path(rel)).st_ino
        for iv, rows in ivs:
            by = {r["cgroup"]: r for r in rows}
            kids = [by[p] for p in (cg.rel("a/a1"), cg.rel("b")) if p in by]
            if not kids:
                continue
            top = by[cg.rel()]
            assert top["cpu_ns"] == sum(k["cpu_ns"] for k in kids), (top, kids)
            assert by[cg.rel("a")]["cpu_ns"] == by.get(cg.rel("a/a1"), {"cpu_ns": 0})["cpu_ns"]
            assert all(r["cgroup"].startswith(cg.rel()) for r in rows), \
                "rows outside the selected cgroup"


def test_cgroup_filter_excludes_outside():
    """-c PATH in the process view: only processes in it or below."""
    with Cgroups("in") as cg, Workload("burn", 200, cpus="0") as win, \
            Workload("burn", 200, cpus="0") as wout:
        win.ready()
        wout.ready()
        cg.move(win.pid, "in")
        with Tdtop("-c", cg.rel(), "-e", "cpu-clock", "-d", "0.3") as td:
            td.wait_intervals(1)
            win.go()
            wout.go()
            win.done()
            wout.done()
            td.wait_more(1)
            win.finish()
            wout.finish()
            ivs = td.finish()
        assert rows_of(ivs, win.pid), "the process inside was not shown"
        assert not rows_of(ivs, wout.pid), "a process outside the cgroup was shown"
        pids = {r["pid"] for _, rows in ivs for r in rows}
        assert pids <= {win.pid}, f"unexpected processes: {pids}"
        assert_close("cpu_ns inside", sum_rows(rows_of(ivs, win.pid)), win.delta("cpu_ns"),
                     slack=5 * MS + win.stolen_ns)


def test_removed_cgroup_reported_then_dropped():
    """A cgroup whose only process exits and which is then removed shows its
    last interval, then no more rows."""
    with Cgroups("gone") as cg, Workload("burn", 150, cpus="0") as wl:
        wl.ready()
        cg.move(wl.pid, "gone")
        with Tdtop("--by", "cgroup", "-c", cg.rel(), "-e", "cpu-clock", "-d", "0.3") as td:
            td.wait_intervals(1)
            wl.run()
            wl.finish()
            cg.remove("gone")
            removed_at = time.time()
            td.wait_more(3)
            ivs = td.finish()
        rows = cgroup_rows(ivs, cg.rel("gone"))
        assert rows, "the removed cgroup was never reported"
        assert_close("cpu_ns of the removed cgroup", sum_rows(rows), wl.delta("cpu_ns"),
                     slack=5 * MS + wl.stolen_ns)
        late = [iv for iv, rs in ivs if iv["ts"] - iv["interval_s"] > removed_at + 0.5
                and any(r["cgroup"] == cg.rel("gone") for r in rs)]
        assert not late, "rows for a removed cgroup after its last interval"


def test_cgroup_path_errors():
    require_root()
    r = run([TDTOP, "-b", "-n", "1", "-c", "no/such/cgroup-here"])
    assert r.returncode == 2, r
    err = r.stderr.decode()
    assert err.count("\n") == 1 and "no/such/cgroup-here" in err, err
    r = run([TDTOP, "-b", "-n", "1", "-c", "../etc"])
    assert r.returncode == 2, r
    r = run([TDTOP, "-b", "-n", "1", "--by", "pods"])
    assert r.returncode == 2 and b"--by" in r.stderr, r


def test_cgroup_filter_follows_recreated_path():
    """-c PATH whose directory is removed and made again (a service restart):
    tdtop follows the new cgroup, says so once on stderr, and shows the
    process moved into it."""
    with Cgroups("svc") as cg, Workload("burn", 200, cpus="0") as wl:
        wl.ready()
        old_id = os.stat(cg.path("svc")).st_ino
        with Tdtop("-c", cg.rel("svc"), "-e", "cpu-clock", "-d", "0.2") as td:
            td.wait_intervals(1)
            cg.remove("svc")
            if not td.err.wait_for(lambda lines: any(b"was removed" in ln for ln in lines), 20):
                td.fail("no word of the removal")
            os.mkdir(cg.path("svc"))
            new_id = os.stat(cg.path("svc")).st_ino
            assert new_id != old_id
            if not td.err.wait_for(lambda lines: any(b"created again" in ln for ln in lines), 20):
                td.fail("the new cgroup was not followed")
            cg.move(wl.pid, "svc")
            wl.run()
            td.wait_more(2)
            ivs = td.finish()
            err = td.stderr()
        assert err.count("was removed") == 1 and err.count("created again") == 1, err
        assert f"id {new_id}, was {old_id}" in err, err
        assert_close("cpu_ns in the new cgroup", sum_rows(rows_of(ivs, wl.pid)),
                     wl.delta("cpu_ns"), slack=5 * MS + wl.stolen_ns)
