#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Checks the source layout that docs/architecture.md describes: each folder
of src/ includes only from the folders below it, the BPF skeleton and
libbpf only in measure/ and the commands, bpf/ only the BPF headers, an
internal header only from its own folder, no header cycle, no .c file over
MAX_LINES lines, few files directly in src/, and every .c file opening with
a comment that says what it is for. One line per rule, then
"N passed, N failed"."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SRC = os.path.join(ROOT, "src")
MAX_LINES = 900
MAX_TOP_C = 12

# What each folder may include besides itself, lowest first. The commands
# (files directly in src/) may include anything.
ALLOWED = {
    "util": set(),
    "pmu": {"util"},
    "cgroup": {"util"},
    "rows": {"util", "pmu"},
    "measure": {"util", "pmu", "rows"},
    "output": {"util", "cgroup", "rows"},
    "tui": {"util", "cgroup", "rows"},
    "exporter": {"util", "pmu", "cgroup", "rows"},
    "record": {"util", "pmu", "rows", "output"},
}
# headers found outside src/: the BPF ABI and the generated skeleton
OUTSIDE = {"tdtop_abi.h", "tdtop.skel.h"}
# the skeleton and libbpf: only the code that talks to the kernel
KERNEL_HEADERS = {"tdtop.skel.h", "bpf/libbpf.h", "bpf/bpf.h"}
KERNEL_FOLDERS = {"measure", None}
# what the BPF side may include: the kernel's types, libbpf's BPF headers, the ABI
BPF_QUOTED = {"vmlinux.h", "tdtop_abi.h"}
BPF_SYSTEM = re.compile(r"bpf/bpf_\w+\.h$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s+<([^>]+)>", re.M)
# a header marks itself internal to its folder with this line
INTERNAL = re.compile(r"^/\* Internal to (\w+)/\. \*/$", re.M)


def sources():
    for d, _, files in os.walk(SRC):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(d, f), SRC)


def folder(rel):
    return rel.split("/")[0] if "/" in rel else None


def read(rel):
    with open(os.path.join(SRC, rel), encoding="utf-8") as f:
        return f.read()


def includes(rel):
    return INCLUDE.findall(read(rel))


def check_layers(files):
    bad = []
    for rel in files:
        mine = folder(rel)
        if mine is None:
            continue
        if mine not in ALLOWED:
            bad.append(f"{rel}: folder {mine}/ has no place in the layer table")
            continue
        for inc in includes(rel):
            theirs = folder(inc)
            if theirs is None:
                if inc not in OUTSIDE:
                    bad.append(f"{rel} includes the command header {inc}")
            elif theirs != mine and theirs not in ALLOWED[mine]:
                bad.append(f"{rel} includes {inc}: {mine}/ may not use {theirs}/")
    return bad


def check_kernel_headers(files):
    bad = []
    for rel in files:
        text = read(rel)
        for inc in INCLUDE.findall(text) + SYSTEM_INCLUDE.findall(text):
            if inc in KERNEL_HEADERS and folder(rel) not in KERNEL_FOLDERS:
                bad.append(f"{rel} includes {inc}: only measure/ and the commands may")
    return bad


def check_bpf(files):
    bad = []
    bpf = os.path.join(ROOT, "bpf")
    for f in sorted(os.listdir(bpf)):
        if not f.endswith((".c", ".h")):
            continue
        with open(os.path.join(bpf, f), encoding="utf-8") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            if inc not in BPF_QUOTED:
                bad.append(f"bpf/{f} includes {inc}: only vmlinux.h and tdtop_abi.h")
        for inc in SYSTEM_INCLUDE.findall(text):
            if not BPF_SYSTEM.match(inc):
                bad.append(f"bpf/{f} includes <{inc}>: only libbpf's bpf/bpf_*.h")
    return bad


def check_internal(files):
    owner = {}
    bad = []
    for rel in files:
        if rel.endswith(".h"):
            m = INTERNAL.search(read(rel))
            if m:
                owner[rel] = m.group(1)
                if m.group(1) != folder(rel):
                    bad.append(f"{rel} says it is internal to {m.group(1)}/")
    for rel in files:
        for inc in includes(rel):
            if inc in owner and folder(rel) != owner[inc]:
                bad.append(f"{rel} includes {inc}, internal to {owner[inc]}/")
    return bad


def check_cycles(files):
    graph = {rel: [i for i in includes(rel) if i in files] for rel in files if rel.endswith(".h")}
    bad, state = [], {}

    def visit(n, path):
        state[n] = 1
        for m in graph.get(n, []):
            if state.get(m) == 1:
                bad.append("include cycle: " + " -> ".join(path[path.index(m):] + [m]))
            elif m not in state:
                visit(m, path + [m])
        state[n] = 2

    for n in graph:
        if n not in state:
            visit(n, [n])
    return bad


def check_sizes(files):
    bad = []
    for rel in files:
        if rel.endswith(".c"):
            with open(os.path.join(SRC, rel), encoding="utf-8") as f:
                n = sum(1 for _ in f)
            if n > MAX_LINES:
                bad.append(f"{rel}: {n} lines (at most {MAX_LINES})")
    top = [r for r in files if "/" not in r and r.endswith(".c")]
    if len(top) > MAX_TOP_C:
        bad.append(f"{len(top)} .c files directly in src/ (at most {MAX_TOP_C}): {' '.join(top)}")
    return bad


def check_comments(files):
    bad = []
    paths = [os.path.join("src", r) for r in files if r.endswith(".c")]
    paths += [os.path.join("bpf", f) for f in os.listdir(os.path.join(ROOT, "bpf")) if f.endswith(".c")]
    for p in paths:
        with open(os.path.join(ROOT, p), encoding="utf-8") as f:
            lines = f.read().split("\n")
        body = [l for l in lines[1:] if l.strip()]
        if not body or not body[0].lstrip().startswith(("/*", "//")):
            bad.append(f"{p}: no comment saying what the file is for after the SPDX line")
    return bad


def main():
    files = set(sources())
    rules = [("layers", check_layers), ("kernel headers", check_kernel_headers),
             ("bpf includes", check_bpf), ("internal headers", check_internal),
             ("include cycles", check_cycles),
             ("file sizes", check_sizes), ("file comments", check_comments)]
    passed = failed = 0
    for name, fn in rules:
        bad = fn(sorted(files))
        if bad:
            failed += 1
            print(f"FAIL layout/{name}")
            for b in bad:
                print(f"    {b}")
        else:
            passed += 1
            print(f"ok   layout/{name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
