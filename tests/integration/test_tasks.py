# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Task bookkeeping under churn: thousands of short-lived processes are all
reported (with their exit), more threads run in an interval than the change
lists hold, and a full task map loses no time, it only moves it to the
"lost" bucket."""
from tdtest import (FREE_S, NCPUS, Workload, assert_close, assert_conservation, observe,
                    require_root, rows_of, sum_rows)

MS = 1000000
SPAWN = 1500
# keys a CPU's change list holds in one interval (CHANGE_LIST_LEN, bpf/tdtop_abi.h)
CHANGE_LIST_LEN = 510


def test_short_lived_processes_all_reported():
    require_root()
    with Workload("spawn", SPAWN, 200) as wl:
        ivs = observe(wl, "-e", "cpu-clock", "-d", "0.5", "--max-tasks", "16384")
        children = set(wl.report["child_pids"])
        assert len(children) == SPAWN, f"workload reported {len(children)} children"
        rows = [r for _, rs in ivs for r in rs if r["type"] == "process" and r["pid"] in children]
        exited = {r["pid"] for r in rows if r.get("exited") is True}
        missing = children - exited
        assert not missing, (f"{len(missing)} of {SPAWN} children never reported as exited, "
                             f"e.g. {sorted(missing)[:10]}")
        for r in rows:
            # a child preempted between fork and its prctl ran briefly under
            # its parent's name: a row from then is right to say so
            want = ("wl-child",) if r.get("exited") else ("wl-child", "workload")
            assert r["comm"] in want, f"child {r['pid']} reported as {r['comm']!r}"
        # each child reported exited exactly once, and nothing after that
        nexit = sum(1 for r in rows if r.get("exited") is True)
        assert nexit == SPAWN, f"{nexit} exit reports for {SPAWN} children"
        last = {}
        for i, (iv, rs) in enumerate(ivs):
            for r in rs:
                if r["type"] == "process" and r["pid"] in children and r.get("exited"):
                    # all children were reaped before the workload reported
                    assert iv["ts"] - iv["interval_s"] <= wl.done_time + FREE_S, \
                        f"child {r['pid']}'s exit reported in a later interval"
                if r["type"] == "process" and r["pid"] in children:
                    assert r["pid"] not in last or not last[r["pid"]][1], \
                        f"child {r['pid']} reported again after its exit"
                    last[r["pid"]] = (i, r.get("exited") is True)
        truth = wl.delta("children", "utime_ns") + wl.delta("children", "stime_ns")
        assert truth >= SPAWN * 200000, f"children used only {truth} ns"
        # rusage is in µs; each child also pays fork/exit work on both sides
        assert_close("children cpu_ns vs RUSAGE_CHILDREN", sum_rows(rows), truth,
                     rel=0.05, slack=10 * MS + wl.stolen_ns)
        assert_close("children cpu-clock vs RUSAGE_CHILDREN", sum_rows(rows, "cpu-clock"),
                     truth, rel=0.05, slack=10 * MS + wl.stolen_ns)


def test_more_threads_than_the_change_lists_hold():
    """Each CPU lists the tasks it charged in an interval, 510 at most; with
    more threads running in one interval than all CPUs' lists hold (so at
    least one list overflows), tdtop reads its whole task table instead.
    Every thread still has its rows, the threads add up to the process's
    CPU time, and every interval adds up."""
    require_root()
    n = CHANGE_LIST_LEN * NCPUS + 300
    evs = ("cpu-clock", "context-switches")
    with Workload("threads", n, 1200) as wl:
        ivs = observe(wl, "-H", "-e", ",".join(evs), "-d", "0.4", "--max-tasks", "16384")
        rows = rows_of(ivs, wl.pid, kind=None)
        busiest = max(len({r["tid"] for r in rs if r["pid"] == wl.pid}) for _, rs in ivs)
        assert busiest > CHANGE_LIST_LEN * NCPUS, \
            f"at most {busiest} threads ran in one interval: no change list overflowed"
        tids = {r["tid"] for r in rows}
        assert len(tids) >= n + 1, f"{len(tids)} threads have rows, {n} + main ran"
        # 0.5 µs at each end of each slice, as for one thread's rows
        assert_close("threads' cpu_ns vs CLOCK_PROCESS_CPUTIME_ID", sum_rows(rows),
                     wl.delta("cpu_ns"),
                     slack=5 * MS + wl.stolen_ns + 1000 * sum_rows(rows, "context-switches"))
        assert_conservation(ivs, evs)


def test_full_task_map_goes_to_lost():
    """--max-tasks 16 with 200 threads waking every 2 ms: slices that find
    no room are counted as dropped and charged to "lost", and every
    interval still adds up."""
    require_root()
    evs = ("cpu-clock", "page-faults", "context-switches")
    with Workload("threads", 200, 2000, "burn", 200, 2) as wl:
        ivs = observe(wl, "-e", ",".join(evs), "-d", "0.5", "--max-tasks", "16",
                      until_exit=False)
        dropped = sum(iv["dropped"] for iv, _ in ivs)
        lost_ns = sum(iv["cpu_ns"]["lost"] for iv, _ in ivs)
        lost_clock = sum(iv["lost"]["cpu-clock"] for iv, _ in ivs)
        lost_cs = sum(iv["lost"]["context-switches"] for iv, _ in ivs)
        assert dropped > 0, "no dropped slices reported with a 16-entry task map"
        assert lost_ns > 0 and lost_clock > 0 and lost_cs > 0, (lost_ns, lost_clock, lost_cs)
        nrows = max(len([r for r in rs if r["type"] == "process"]) for _, rs in ivs)
        # a row needs a map entry, and there are 16
        assert nrows <= 16, f"{nrows} process rows with --max-tasks 16"
        assert_conservation(ivs, evs)


def test_conservation_under_load():
    """Per interval, rows + idle + lost == totals, and totals == ncpus * interval."""
    require_root()
    evs = ("cpu-clock", "page-faults", "context-switches", "cpu-migrations", "task-clock")
    with Workload("burn", 500, 2, "faults", 5000, "switches", 5000, "spawn", 200) as wl:
        ivs = observe(wl, "-e", ",".join(evs), "-d", "0.3")
        assert len(ivs) >= 3, f"only {len(ivs)} intervals"
        assert_conservation(ivs, evs)
        for iv, _ in ivs:
            assert iv["dropped"] == 0, f"dropped {iv['dropped']} with the default task map"
            assert iv["ncpus"] == len(_online_cpus()), iv["ncpus"]
            assert iv["switches"] > 0, iv


def _online_cpus():
    cpus = set()
    with open("/sys/devices/system/cpu/online") as f:
        for part in f.read().strip().split(","):
            lo, _, hi = part.partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus
