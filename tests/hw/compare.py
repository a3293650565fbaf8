#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""TopDown level 1 of tdtop (JSON Lines) next to perf stat's (CSV), one block
per workload of tests/hw/check.sh, with the difference in percentage points;
then tdtop's default read path against --helper-reads; with -e SECS, the
counts per second of the -E events (vendor names, modifiers) by tdtop and
by perf stat. Exit status 1 when the two read paths differ by more than
READ_PATH_LIMIT points anywhere, or an event's rates by more than
EVENT_RATE_LIMIT.

usage: compare.py [-e SECS] DIR WORKLOAD...
  (DIR holds WORKLOAD.pid, .tdtop.json, .tdtop-helper.json, .perf.csv; and
  for -e, events.pid, events.tdtop.json and events.perf.csv of a SECS run)
"""
import json
import os
import sys

NODES = ["retiring", "bad_speculation", "frontend_bound", "backend_bound", "smt_contention"]
HEADS = ["Retiring", "BadSpec", "Frontend", "Backend", "SMT"]
# The default path reads one member of the PERF_METRICS group with the helper
# and the others from memory; --helper-reads reads each. Beyond this many
# percentage points in a category they measure differently.
READ_PATH_LIMIT = 0.5
# tdtop and perf stat count the -E events one after the other on the same
# steady loop: beyond this fraction their counts per second differ.
EVENT_RATE_LIMIT = 0.10
EXPECTED = {
    "alu": "retiring",
    "branch": "bad_speculation",
    "memory": "backend_bound",
    "frontend": "frontend_bound",
}


def json_lines(path):
    """The JSON objects of a file, skipping what does not parse."""
    try:
        lines = open(path, encoding="utf-8", errors="replace").readlines()
    except OSError:
        return []
    rows = []
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def tdtop_percent(path, pid):
    """Slot-weighted mean over the intervals of the process row, in %."""
    sums = {k: 0.0 for k in NODES}
    weight = {k: 0.0 for k in NODES}
    for row in json_lines(path):
        if row.get("type") != "process" or row.get("pid") != pid:
            continue
        slots = row.get("slots")
        topdown = row.get("topdown") or {}
        if not isinstance(slots, (int, float)) or slots <= 0:
            continue
        for k in NODES:
            v = topdown.get(k)
            if isinstance(v, (int, float)):
                sums[k] += v * slots
                weight[k] += slots
    return {k: 100.0 * sums[k] / weight[k] for k in NODES if weight[k] > 0}


def node_name(unit):
    """'%  tma_bad_speculation', '% bad speculation', 'backend_bound' -> node."""
    name = unit.strip().lstrip("%").strip().lower().replace(" ", "_").replace("-", "_")
    if name.startswith("tma_"):
        name = name[4:]
    return name if name in NODES else None


def perf_percent(path):
    """Metric values of perf stat -x, output: a number followed by its unit."""
    found = {}
    try:
        lines = open(path, encoding="utf-8", errors="replace").readlines()
    except OSError:
        return {}
    for line in lines:
        if line.startswith("#"):
            continue
        fields = line.rstrip("\n").split(",")
        for i in range(len(fields) - 1):
            node = node_name(fields[i + 1])
            if not node or node in found:
                continue
            try:
                found[node] = float(fields[i])
            except ValueError:
                pass
    return found


def fmt_row(label, values):
    cells = []
    for k in NODES:
        v = values.get(k)
        cells.append(f"{v:9.1f}" if v is not None else f"{'-':>9}")
    return f"  {label:<7}" + "".join(cells)


def largest(values):
    level1 = {k: v for k, v in values.items() if k != "smt_contention"}
    return max(level1, key=level1.get) if level1 else "-"


def read_path_differences(default, helper, limit=READ_PATH_LIMIT):
    """{node: difference in points} of the categories where the two read
    paths differ by more than *limit*; a category only one path measured
    differs by None, and so does everything when either measured nothing."""
    if not default or not helper:
        return {k: None for k in NODES if k != "smt_contention"}
    differ = {}
    for k in NODES:
        if k not in default and k not in helper:
            continue
        if k not in default or k not in helper:
            differ[k] = None
        elif abs(default[k] - helper[k]) > limit:
            differ[k] = default[k] - helper[k]
    return differ


def compare_read_paths(out_dir, workloads):
    """Print both read paths of each workload; False when any differ."""
    agree = True
    print(f"read paths: default against --helper-reads (limit {READ_PATH_LIMIT} points)")
    for wl, pid in workloads:
        helper_path = os.path.join(out_dir, wl + ".tdtop-helper.json")
        if not os.path.exists(helper_path):
            print(f"{wl}: no --helper-reads run, skipped")
            continue
        default = tdtop_percent(os.path.join(out_dir, wl + ".tdtop.json"), pid)
        helper = tdtop_percent(helper_path, pid)
        print(wl)
        print(fmt_row("default", default))
        print(fmt_row("helper", helper))
        print(fmt_row("diff", {k: default[k] - helper[k] for k in NODES
                               if k in default and k in helper}))
        differ = read_path_differences(default, helper)
        if differ:
            agree = False
            print("  DIFFER: " + ", ".join(
                f"{k} {'unmeasured on one path' if v is None else f'{v:+.2f}'}"
                for k, v in differ.items()))
        else:
            print(f"  agree within {READ_PATH_LIMIT} points")
    return agree


def tdtop_rates(path, pid):
    """{event: count per second} of the process row, over all intervals."""
    counts, secs = {}, 0.0
    for row in json_lines(path):
        if row.get("type") == "interval" and isinstance(row.get("interval_s"), (int, float)):
            secs += row["interval_s"]
        if row.get("type") != "process" or row.get("pid") != pid:
            continue
        for ev, v in (row.get("counts") or {}).items():
            if isinstance(v, (int, float)):
                counts[ev] = counts.get(ev, 0) + v
    return {ev: v / secs for ev, v in counts.items()} if secs > 0 else {}


def perf_rates(path, secs):
    """{event: count per second} of perf stat -x, lines "value,unit,event,..."."""
    rates = {}
    try:
        lines = open(path, encoding="utf-8", errors="replace").readlines()
    except OSError:
        return {}
    for line in lines:
        fields = line.rstrip("\n").split(",")
        if line.startswith("#") or len(fields) < 3 or not fields[2]:
            continue
        try:
            rates[fields[2]] = float(fields[0]) / secs
        except ValueError:
            pass
    return rates


def rate_differences(td, pf, limit=EVENT_RATE_LIMIT):
    """{event: tdtop / perf - 1} of the events both counted whose rates
    differ by more than *limit*; an event one of them counted 0 of, while
    the other did not, differs by None."""
    differ = {}
    for ev in td:
        if ev not in pf:
            continue
        t, p = td[ev], pf[ev]
        if p == 0 or t == 0:
            if p != t:
                differ[ev] = None
        elif abs(t / p - 1) > limit:
            differ[ev] = t / p - 1
    return differ


def compare_events(out_dir, secs):
    """Print the -E events' rates by tdtop and perf; False when any differ."""
    try:
        pid = int(open(os.path.join(out_dir, "events.pid")).read().split()[0])
    except (OSError, ValueError, IndexError):
        print("events: no pid recorded, skipped")
        return True
    td = tdtop_rates(os.path.join(out_dir, "events.tdtop.json"), pid)
    pf = perf_rates(os.path.join(out_dir, "events.perf.csv"), secs)
    print(f"events: tdtop -e against perf stat -e, per second (limit {EVENT_RATE_LIMIT:.0%})")
    if not td:
        print("  tdtop counted nothing for the workload")
        return False
    for ev in list(td) + [e for e in pf if e not in td]:
        cells = "".join(f"{v:>16.4g}" if v is not None else f"{'-':>16}"
                        for v in (td.get(ev), pf.get(ev)))
        print(f"  {ev:<32}{cells}")
    differ = rate_differences(td, pf)
    if differ:
        print("  DIFFER: " + ", ".join(
            f"{ev} {'zero on one side' if v is None else f'{v:+.1%}'}"
            for ev, v in differ.items()))
    else:
        print(f"  agree within {EVENT_RATE_LIMIT:.0%} where both counted")
    return not differ


def main():
    args = sys.argv[1:]
    event_secs = None
    if len(args) >= 2 and args[0] == "-e":
        try:
            event_secs = float(args[1])
        except ValueError:
            event_secs = 0
        if event_secs <= 0:
            print(f"compare.py: -e wants seconds, not {args[1]!r}", file=sys.stderr)
            return 2
        args = args[2:]
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = args[0]
    worst = 0.0
    measured = []
    print(f"  {'':<7}" + "".join(f"{h:>9}" for h in HEADS) + "   (% of slots)")
    for wl in args[1:]:
        try:
            pid = int(open(os.path.join(out_dir, wl + ".pid")).read().split()[0])
        except (OSError, ValueError, IndexError):
            print(f"{wl}: no pid recorded, skipped")
            continue
        measured.append((wl, pid))
        td = tdtop_percent(os.path.join(out_dir, wl + ".tdtop.json"), pid)
        pf = perf_percent(os.path.join(out_dir, wl + ".perf.csv"))
        print(f"{wl} (expected largest: {EXPECTED.get(wl, '?')})")
        print(fmt_row("tdtop", td))
        print(fmt_row("perf", pf))
        diff = {k: td[k] - pf[k] for k in NODES if k in td and k in pf}
        print(fmt_row("diff", diff))
        for v in diff.values():
            worst = max(worst, abs(v))
        print(f"  largest: tdtop {largest(td)}, perf {largest(pf)}")
    print(f"largest difference: {worst:.1f} points")
    print()
    ok = compare_read_paths(out_dir, measured)
    if event_secs is not None:
        print()
        ok = compare_events(out_dir, event_secs) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
