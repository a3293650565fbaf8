#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""TopDown level 1 of tdtop (JSON Lines) next to perf stat's (CSV), one block
per workload of tests/hw/check.sh, with the difference in percentage points;
then tdtop's default read path against --helper-reads. Exit status 1 when
the two read paths differ by more than READ_PATH_LIMIT points anywhere.

usage: compare.py DIR WORKLOAD...
  (DIR holds WORKLOAD.pid, .tdtop.json, .tdtop-helper.json, .perf.csv)
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
EXPECTED = {
    "alu": "retiring",
    "branch": "bad_speculation",
    "memory": "backend_bound",
    "frontend": "frontend_bound",
}


def tdtop_percent(path, pid):
    """Slot-weighted mean over the intervals of the process row, in %."""
    sums = {k: 0.0 for k in NODES}
    weight = {k: 0.0 for k in NODES}
    try:
        lines = open(path, encoding="utf-8", errors="replace").readlines()
    except OSError:
        return {}
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if not isinstance(row, dict) or row.get("type") != "process" or row.get("pid") != pid:
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


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    worst = 0.0
    measured = []
    print(f"  {'':<7}" + "".join(f"{h:>9}" for h in HEADS) + "   (% of slots)")
    for wl in sys.argv[2:]:
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
    return 0 if compare_read_paths(out_dir, measured) else 1


if __name__ == "__main__":
    sys.exit(main())
