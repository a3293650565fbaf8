#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""TopDown level 1 of tdtop (JSON Lines) next to perf stat's (CSV), one block
per workload of tests/hw/check.sh, with the difference in percentage points.

usage: compare.py DIR WORKLOAD...   (DIR holds WORKLOAD.pid, .tdtop.json, .perf.csv)
"""
import json
import os
import sys

NODES = ["retiring", "bad_speculation", "frontend_bound", "backend_bound", "smt_contention"]
HEADS = ["Retiring", "BadSpec", "Frontend", "Backend", "SMT"]
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


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    worst = 0.0
    print(f"  {'':<7}" + "".join(f"{h:>9}" for h in HEADS) + "   (% of slots)")
    for wl in sys.argv[2:]:
        try:
            pid = int(open(os.path.join(out_dir, wl + ".pid")).read().split()[0])
        except (OSError, ValueError, IndexError):
            print(f"{wl}: no pid recorded, skipped")
            continue
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
