# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""perf's event modifiers and vendor event names on the real kernel:
software events with :u and :k count what the kernel counts for them (the
clocks ignore the modifiers, as perf stat shows; faults split into user and
kernel mode; switches happen in the kernel), bad modifiers are usage errors
before anything is loaded, and a vendor name without a CPU PMU says why."""
import json
import os

from tdtest import (TDTOP, SkipTest, Workload, assert_close, assert_conservation, bpf_progs,
                    observe, require_root, rows_of, run, sum_rows, wait_no_progs)

CORE_PMU = any(os.path.exists(f"/sys/bus/event_source/devices/{p}")
               for p in ("cpu", "cpu_core", "cpu_atom"))


def _usage_error(args):
    res = run([TDTOP, "-b", "-n", "1", *args], timeout=10)
    err = res.stderr.decode("utf-8", "replace")
    assert res.returncode == 2, f"{args}: exit {res.returncode}, want 2 ({err!r})"
    assert len(err.splitlines()) == 1 and err.endswith("\n"), f"{args}: not one line: {err!r}"
    assert not res.stdout, f"{args}: stdout {res.stdout[:200]!r}"
    return err


def test_bad_modifiers_are_usage_errors():
    require_root()    # as root too, nothing may be loaded first
    before = {p[0] for p in bpf_progs()}
    cases = {
        "cycles:x": "unknown modifier 'x'",
        "cpu-clock:uZ": "unknown modifier 'Z'",
        "cycles:pp": "precise sampling",
        "cs:uD": "perf's modifier 'D'",
        "cpu-clock:": "no modifiers",
        "msr/tsc/q": "unknown modifier 'q'",
        "INST_RETIRED:ANY": "event.umask",
        "cpu-clock,cs:k,cs:kW": "perf's modifier 'W'",
        "cs:u,context-switches:u": "listed twice",
        "task-clock:uk,task-clock:ku": "the same event",
    }
    for ev, want in cases.items():
        err = _usage_error(["-e", ev])
        assert want in err, f"-e {ev}: {err!r} lacks {want!r}"
    left = wait_no_progs(-1, before)
    assert not left, f"programs left loaded by a usage error: {left}"


def test_vendor_names_without_cpu_pmu():
    """Here libpfm4 may know the CPU, but the kernel has no PMU for it: a
    vendor name is refused up front, naming what is missing."""
    if CORE_PMU:
        raise SkipTest("this machine has a core PMU")
    for ev in ("inst_retired.any", "mem_load_retired.l3_miss:u", "cpu-clock,inst_retired.any"):
        err = _usage_error(["-e", ev])
        assert ("not a known event on this CPU" in err or
                "the kernel has no CPU PMU here" in err), f"-e {ev}: {err!r}"
    err = _usage_error(["-e", "nosuchpmu::inst_retired.any"])
    assert "libpfm4 has no PMU 'nosuchpmu'" in err, err


def test_list_events_vendor_and_modifiers():
    res = run([TDTOP, "--list-events"])
    assert res.returncode == 0, res
    out = res.stdout.decode()
    assert "Vendor events (libpfm4" in out, out[:2000]
    assert "Modifiers, after any event" in out, out[-1000:]
    res = run([TDTOP, "--list-events", "-o", "json"])
    assert res.returncode == 0, res
    d = json.loads(res.stdout)
    assert d["modifiers"] == ["u", "k", "h", "G", "H"], d["modifiers"]
    assert isinstance(d["vendor"], list), d["vendor"]
    for v in d["vendor"]:
        assert v["libpfm4_pmu"] and isinstance(v["events"], list), v
        if not CORE_PMU:
            assert not v["events"], f"events listed without a CPU PMU: {v['events'][:5]}"


def test_software_events_with_modifiers():
    """What the kernel does with a software event's exclude bits, seen
    through tdtop as perf stat shows it: the clocks count all CPU time
    anyway, a fault counts as user or kernel mode by where it happened,
    and a context switch always happens in the kernel."""
    require_root()
    evs = ("cpu-clock", "cpu-clock:u", "page-faults", "page-faults:u", "page-faults:k",
           "context-switches", "cs:u", "cs:k")
    names = [e.replace("cs:", "context-switches:") for e in evs]
    with Workload("burn", 300, "faults", 3000, "switches", 1000, cpus="0") as wl:
        ivs = observe(wl, "-e", ",".join(evs), "-d", "0.3")
    assert_conservation(ivs, names)
    for iv, _ in ivs:
        assert set(names) <= set(iv["totals"]), sorted(iv["totals"])
        assert iv["totals"]["context-switches:u"] == 0, iv["totals"]
        assert_close("interval cpu-clock:u vs cpu-clock", iv["totals"]["cpu-clock:u"],
                     iv["totals"]["cpu-clock"], rel=0.01)
    rows = rows_of(ivs, wl.pid)
    assert_close("workload cpu-clock:u vs cpu-clock", sum_rows(rows, "cpu-clock:u"),
                 sum_rows(rows, "cpu-clock"), rel=0.01)
    faults = sum_rows(rows, "page-faults")
    user, kernel = sum_rows(rows, "page-faults:u"), sum_rows(rows, "page-faults:k")
    # read together at each switch: the two modes add up to all faults
    assert user + kernel == faults, (user, kernel, faults)
    assert user >= 3000, f"the 3000 pages touched from user mode: {user} user faults"
    switches = sum_rows(rows, "context-switches")
    assert switches >= 1000, switches
    assert sum_rows(rows, "context-switches:k") == switches, rows
