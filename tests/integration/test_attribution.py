# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What tdtop charges to a process against what the kernel accounted for it
(CLOCK_PROCESS_CPUTIME_ID, schedstat, getrusage), summed over every interval
from attach to the process's exit. The workload reports its accounting just
before and after its work, while tdtop is already attached; in between, and
after, it is blocked, so the windows match up to a few ms or faults."""
import json
import os

from tdtest import (SWITCH_PROGS, TDTOP, TICK_NS, Sampler, SkipTest, Workload, assert_close,
                    assert_conservation, bpf_progs, children, helper_path, observe,
                    require_cpus, require_root, rows_of, rows_seen, run, schedstat_ns, steal_ns,
                    sum_rows)

MS = 1000000


def test_burn_cpu_time():
    """Two threads burning 400 ms each on CPU 0; slices timed once by the
    cpu-clock event (when it is counted) and once by the BPF clock."""
    require_root()
    for evs in ("cpu-clock,task-clock", "task-clock"):
        with Workload("burn", 400, 2, cpus="0") as wl:
            ivs = observe(wl, "-e", evs, "-d", "0.5")
            rows = rows_seen(ivs, wl.pid)
            truth = wl.delta("cpu_ns")
            assert truth >= 800 * MS, f"workload burnt only {truth} ns"
            # tdtop also sees the process wake up, report and exit: ~1 ms
            for name, got in [(f"cpu_ns (-e {evs})", sum_rows(rows))] + \
                    [(e, sum_rows(rows, e)) for e in evs.split(",")]:
                assert_close(f"{name} vs CLOCK_PROCESS_CPUTIME_ID", got, truth,
                             slack=3 * MS + wl.stolen_ns)
                assert_close(f"{name} vs schedstat", got, wl.sched_ns,
                             slack=3 * MS + wl.stolen_ns)
            assert_conservation(ivs, evs.split(","))


def test_page_faults():
    """20000 fresh pages touched: one minor fault each."""
    require_root()
    with Workload("faults", 20000, cpus="0") as wl:
        ivs = observe(wl, "-e", "page-faults,minor-faults,major-faults", "-d", "0.5")
        rows = rows_seen(ivs, wl.pid)
        minflt, majflt = wl.delta("self", "minflt"), wl.delta("self", "majflt")
        assert minflt >= 20000, f"workload saw only {minflt} minor faults"
        # a few faults of the go/report/exit path are outside the window
        assert_close("page-faults vs minflt+majflt", sum_rows(rows, "page-faults"),
                     minflt + majflt, slack=30)
        assert_close("minor-faults vs minflt", sum_rows(rows, "minor-faults"), minflt, slack=30)
        assert_close("major-faults vs majflt", sum_rows(rows, "major-faults"), majflt, slack=5)


def test_context_switches():
    """20000 pipe round trips between two threads sharing CPU 0."""
    require_root()
    with Workload("switches", 20000, cpus="0") as wl:
        ivs = observe(wl, "-e", "context-switches", "-d", "0.5")
        rows = rows_seen(ivs, wl.pid)
        truth = wl.delta("self", "nvcsw") + wl.delta("self", "nivcsw")
        assert truth >= 40000, f"workload switched only {truth} times"
        assert_close("context-switches vs nvcsw+nivcsw", sum_rows(rows, "context-switches"),
                     truth, slack=20)


def _switch_prog_of_tdtop():
    """The sched_switch program of the tdtop this test runs (not of another
    someone runs meanwhile)."""
    tdtop = os.path.realpath(TDTOP)
    mine = {p for p in children(os.getpid()) if os.path.realpath(f"/proc/{p}/exe") == tdtop}
    names = [name for _, name, owners in bpf_progs()
             if name in SWITCH_PROGS and owners & mine]
    assert len(names) == 1, f"sched_switch programs loaded: {names}"
    return names[0]


def test_memory_and_helper_reads_agree():
    """Faults and switches are read from struct perf_event where the kernel
    allows it (on_switch_mem), else, and with --helper-reads, through the
    helper: both paths match the kernel's own accounting and add up, with
    cpu-clock (always through the helper) read beside them."""
    require_root()
    evs = ("cpu-clock", "page-faults", "context-switches")
    for extra in ((), ("--helper-reads",)):
        seen = {}
        with Workload("faults", 5000, "switches", 5000, cpus="0") as wl:
            ivs = observe(wl, "-e", ",".join(evs), "-d", "0.5", *extra,
                          before=lambda: seen.update(prog=_switch_prog_of_tdtop()))
            mode = " ".join(extra) or "default"
            if extra:
                assert seen["prog"] == "on_switch", f"{mode}: {seen['prog']} attached"
            elif seen["prog"] != "on_switch_mem":
                raise SkipTest("this kernel has no bpf_rdonly_cast(): only the helper path runs")
            rows = rows_seen(ivs, wl.pid)
            faults = wl.delta("self", "minflt") + wl.delta("self", "majflt")
            switches = wl.delta("self", "nvcsw") + wl.delta("self", "nivcsw")
            assert faults >= 5000 and switches >= 10000, (faults, switches)
            assert_close(f"{mode}: page-faults vs minflt+majflt",
                         sum_rows(rows, "page-faults"), faults, slack=30)
            assert_close(f"{mode}: context-switches vs nvcsw+nivcsw",
                         sum_rows(rows, "context-switches"), switches, slack=20)
            assert all(iv["read_errors"] == 0 for iv, _ in ivs), f"{mode}: read errors"
            assert_conservation(ivs, evs)


def test_group_member_read_after_leader():
    """The PERF_METRICS path (one helper read of the slots leader, the
    metrics loaded from memory with its times) on a software stand-in, since
    no TopDown PMU is needed: one cpu-clock event as leader, as member and
    as in-place count (tests/bpf/member_reads.c). Its count in memory moves
    only when read, so the member equals the leader only when loaded after
    the leader's read; when that read fails, the member fails with it."""
    require_root()
    with open("/proc/kallsyms") as f:
        if not any(line.split()[2:3] == ["bpf_rdonly_cast"] for line in f):
            raise SkipTest("this kernel has no bpf_rdonly_cast(): no loads from memory")
    res = run([helper_path("member_reads"), "0"])
    assert res.returncode == 0, res.stderr.decode()
    phases = {p["phase"]: p for p in map(json.loads, res.stdout.decode().splitlines())}
    leader, member, in_place = 0, 1, 2
    for name, errors in (("both read", 0), ("leader fails", 4), ("leader back", 4)):
        p = phases[name]
        assert p["read_errors"] == errors, f"{name}: {p['read_errors']} read errors, want {errors}"
        assert p["last"][member] == p["last"][leader], f"{name}: member {p['last'][member]} " \
            f"is not the leader's reading {p['last'][leader]}"
        assert p["total"][member] == p["total"][leader], f"{name}: member charged " \
            f"{p['total'][member]}, leader {p['total'][leader]}"
        # the in-place count takes the slice's times, the member the leader's
        assert p["last"][in_place][1] != p["last"][leader][1], name
    both, failed, back = phases["both read"], phases["leader fails"], phases["leader back"]
    assert both["total"][leader][0] >= 5 * MS, f"two 5 ms slices charged {both['total']}"
    assert failed["primed"] == 1 << in_place, f"primed {failed['primed']:#x}: the member " \
        "kept a reading its failed leader did not give"
    assert failed["total"][member] == both["total"][member], "charged from a failed read"
    assert failed["total"][in_place][1] > both["total"][in_place][1], "in-place count not read"
    assert back["primed"] == 7 and back["total"][member][0] > both["total"][member][0], \
        f"member not charged again once its leader reads: {back}"


def test_never_switching_task_counted_every_interval():
    """A thread spinning alone on CPU 1 never leaves it: every interval must
    still charge it what it ran in that interval (~100%), not only the one
    in which it finally stops. What it ran per interval is interpolated from
    its schedstat sampled every 20 ms, so other load on CPU 1 is allowed for,
    and so is what the hypervisor stole (in tdtop's time, not schedstat's)."""
    require_root()
    require_cpus(2)
    with Workload("burn", 3000, 1, cpus="1") as wl:
        samplers = {}

        def start():
            samplers.update(ran=Sampler(lambda: schedstat_ns(wl.pid)), steal=Sampler(steal_ns))

        def stop():
            for s in samplers.values():
                s.stop()

        ivs = observe(wl, "-e", "cpu-clock", "-d", "0.5", tdtop_cpus="0", before=start,
                      after=stop)
        sampler = samplers["ran"]
        inside = [(iv, rs) for iv, rs in ivs
                  if iv["ts"] - iv["interval_s"] >= wl.go_time + 0.1
                  and iv["ts"] <= wl.done_time - 0.1]
        assert len(inside) >= 3, f"only {len(inside)} intervals inside the burn"
        alone = 0
        for iv, rs in inside:
            mine = [r for r in rs if r["pid"] == wl.pid and r["type"] == "process"]
            assert len(mine) == 1, f"interval ts={iv['ts']}: {len(mine)} rows for pid {wl.pid}"
            r = mine[0]
            ran = sampler.at(iv["ts"]) - sampler.at(iv["ts"] - iv["interval_s"])
            stolen = samplers["steal"].rise(iv["ts"] - iv["interval_s"], iv["ts"]) + TICK_NS
            pct = 100.0 * ran / (iv["interval_s"] * 1e9)
            alone += pct >= 95
            assert abs(r["cpu_pct"] - pct) <= 5 + 100.0 * stolen / (iv["interval_s"] * 1e9), \
                f"interval ts={iv['ts']}: cpu_pct {r['cpu_pct']:.1f}, schedstat says {pct:.1f}"
            assert_close(f"interval ts={iv['ts']}: cpu-clock vs schedstat",
                         r["counts"]["cpu-clock"], ran, rel=0.05, slack=stolen)
        if alone < 2:
            # other work kept preempting the thread: the no-switch case was not met
            raise SkipTest(f"CPU 1 too busy: the thread had it alone in {alone} intervals")


def _thread_schedstat(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            out[int(tid)] = int(f.read().split()[0])
    return out


def test_thread_rows():
    """-H: one row per thread; each thread's total matches its own
    schedstat, the threads add up to the process's CPU time and page
    faults, and every interval's thread rows + idle + lost == totals."""
    require_root()
    evs = ("cpu-clock", "page-faults", "context-switches")
    marks = {}
    # Pinned: a wakeup onto an idle CPU makes the kernel start the woken
    # thread's runtime at the (stale) wakeup clock, so with a CPU idling
    # between the ping-pong's switches schedstat would credit each thread
    # a few µs per switch that it did not spend on the CPU.
    with Workload("burn", 300, 3, "faults", 3000, "switches", 3000, cpus="0") as wl:
        ivs = observe(wl, "-H", "-e", ",".join(evs), "-d", "0.5",
                      before=lambda: marks.update(before=_thread_schedstat(wl.pid)),
                      after=lambda: marks.update(after=_thread_schedstat(wl.pid)))
        rows = rows_of(ivs, wl.pid, kind=None)
        assert rows and all(r["type"] == "thread" for r in rows), rows[:3]
        tids = set(wl.report["tids"])
        assert len(tids) == 5, tids    # main, 3 burners, 1 ponger
        assert {r["tid"] for r in rows} == tids, ({r["tid"] for r in rows}, tids)
        for tid in tids:
            mine = [r for r in rows if r["tid"] == tid]
            got = sum_rows(mine)
            sched = marks["after"][tid] - marks["before"].get(tid, 0)
            # tdtop's slice ends at the tracepoint, the kernel's runtime at
            # its clock update a little earlier in the same switch: allow
            # 0.5 µs at each end of each slice (the ponger has thousands)
            assert_close(f"thread {tid} cpu_ns vs its schedstat", got, sched,
                         slack=3 * MS + wl.stolen_ns + 1000 * sum_rows(mine, "context-switches"))
        assert_close("threads' cpu_ns vs CLOCK_PROCESS_CPUTIME_ID", sum_rows(rows),
                     wl.delta("cpu_ns"), slack=3 * MS + wl.stolen_ns)
        assert_close("threads' page-faults vs minflt+majflt", sum_rows(rows, "page-faults"),
                     wl.delta("self", "minflt") + wl.delta("self", "majflt"), slack=30)
        assert_conservation(ivs, evs)
