# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Machine-readable output stays parseable whatever the data: every JSON line
is an object of the documented shape, CSV keeps its columns, a comm made of
quotes, backslashes, a newline, control bytes and invalid UTF-8 changes
neither, and a stop signal while output is blocked loses none of it. CSV
has every JSON field under its dotted name and no column twice, and the
TopDown notice is said once (docs/output.md)."""
import csv
import fcntl
import io
import os
import select
import signal
import struct
import subprocess
import tempfile
import termios
import time

import test_record as rec
from tdtest import (TDTOP, LineReader, SkipTest, Tdtop, Workload, group_intervals, observe,
                    parse_json_lines, require_root)

# 10 bytes, under the 15 a comm can hold
WEIRD = b'q"b\\s\nn\x01\xff\xfe,'
EVENTS = ("cpu-clock", "page-faults", "context-switches")


def _check_interval(iv):
    for key, typ in (("ts", (int, float)), ("interval_s", (int, float)), ("ncpus", int),
                     ("totals", dict), ("idle", dict), ("lost", dict), ("cpu_ns", dict),
                     ("dropped", int), ("read_errors", int), ("switches", int)):
        assert isinstance(iv.get(key), typ), f"interval {key}: {iv.get(key)!r}"
    for key in ("totals", "idle", "lost"):
        assert set(iv[key]) == set(EVENTS), (key, iv[key])
        assert all(isinstance(v, int) and v >= 0 for v in iv[key].values()), iv[key]
    assert set(iv["cpu_ns"]) >= {"total", "idle", "lost"}, iv["cpu_ns"]
    assert iv["interval_s"] > 0 and iv["ncpus"] >= 1, iv


def _check_row(r):
    assert r["type"] in ("process", "thread"), r
    for key, typ in (("pid", int), ("comm", str), ("cpu_ns", int), ("cpu_pct", (int, float)),
                     ("counts", dict)):
        assert isinstance(r.get(key), typ), f"row {key}: {r!r}"
    if r["type"] == "thread":
        assert isinstance(r.get("tid"), int), r
    else:
        assert isinstance(r.get("threads"), int) and r["threads"] >= 1, r
    assert r.get("exited", True) is True, r    # present only when true
    assert set(r["counts"]) == set(EVENTS), r
    assert all(isinstance(v, int) and v >= 0 for v in r["counts"].values()), r


def test_json_lines_shape():
    require_root()
    for extra in ([], ["-H"]):
        with Workload("burn", 200, 2, "spawn", 50, "faults", 1000) as wl:
            ivs = observe(wl, "-e", ",".join(EVENTS), "-d", "0.3", *extra)
        assert len(ivs) >= 2, len(ivs)
        for iv, rows in ivs:
            _check_interval(iv)
            for r in rows:
                _check_row(r)
                assert r["type"] == ("thread" if extra else "process"), r


def test_weird_comm_json():
    require_root()
    with Workload("burn", 100, 1, name=WEIRD) as wl:
        ivs = observe(wl, "-e", ",".join(EVENTS), "-d", "0.3")  # every line decoded strictly
        comms = {r["comm"] for _, rs in ivs for r in rs if r["pid"] == wl.pid}
        assert len(comms) == 1, comms
        comm = comms.pop()
        # quotes and backslashes round-trip; nothing is cut at the newline
        assert comm.startswith('q"b\\s'), repr(comm)
        assert len(comm) >= len(WEIRD) - 2, repr(comm)
        assert "\n" not in comm or comm.startswith('q"b\\s\nn'), repr(comm)


def _csv_records(data):
    text = data.decode("utf-8")    # strict: the file must stay valid UTF-8
    return list(csv.reader(io.StringIO(text, newline="")))


def _exit_seen(lines, pid):
    """A record of process pid with exited=1 is among the CSV lines."""
    recs = _csv_records(b"".join(lines))
    if not recs:
        return False
    hdr = recs[0]
    if not {"pid", "exited"} <= set(hdr):
        return False
    return any(len(r) == len(hdr) and r[hdr.index("pid")] == str(pid)
               and r[hdr.index("exited")] == "1" for r in recs[1:])


def test_csv_columns_and_weird_comm():
    require_root()
    with Workload("burn", 200, 2, "spawn", 50, name=WEIRD) as wl:
        wl.ready()
        with Tdtop("-e", ",".join(EVENTS), "-d", "0.3", fmt="csv") as td:
            td.wait_lines(lambda lines: len(lines) >= 2)
            wl.run()
            wl.finish()
            td.wait_lines(lambda lines: _exit_seen(lines, wl.pid))
            assert td.stop() == 0, td.stderr()
            data = td.out.data()
    lines = data.split(b"\n")
    assert lines[-1] == b"" and all(lines[:-1]), "empty line or no final newline"
    recs = _csv_records(data)
    header = recs[0]
    assert all(f"counts.{ev}" in header and f"totals.{ev}" in header for ev in EVENTS), header
    for key in ("pid", "comm", "cpu_ns"):
        assert key in header, header
    for i, row in enumerate(recs[1:], 2):
        if row == header:
            continue    # a repeated header is allowed
        assert len(row) == len(header), \
            f"record {i}: {len(row)} fields, header {len(header)}: {row}"
        interval = row[header.index("type")] == "interval"
        for ev in EVENTS:
            float(row[header.index(("totals." if interval else "counts.") + ev)])
        int(row[header.index("cpu_ns.total" if interval else "cpu_ns")])
    # one record per physical line: no raw newline inside a field
    assert len(recs) == len(lines) - 1, (len(recs), len(lines))
    mine = [rec for rec in recs[1:] if rec[header.index("pid")] == str(wl.pid)]
    assert mine, f"no record for pid {wl.pid}"
    comms = {rec[header.index("comm")] for rec in mine}
    assert len(comms) == 1 and comms.pop().startswith('q"b\\'), comms


def _read_stdout(proc, data, until, timeout):
    """Appends what proc writes to stdout to *data* until until(data) holds
    or EOF, straight from the pipe's fd: nothing is held in a Python
    buffer, where a later read of the fd would not see it."""
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + timeout
    while not until(data):
        left = deadline - time.monotonic()
        assert left > 0, f"tdtop's output incomplete after {timeout}s: {bytes(data[-300:])!r}"
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            data += chunk


def _wait_blocked_writing(proc, timeout):
    """Waits until proc sleeps in a write to its stdout pipe, which is full
    (but for part of a page: the pipe keeps each write's tail in a page of
    its own)."""
    fd = proc.stdout.fileno()
    size = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    deadline = time.monotonic() + timeout
    while True:
        queued = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
        with open(f"/proc/{proc.pid}/wchan") as f:
            wchan = f.read()
        if queued > size - os.sysconf("SC_PAGE_SIZE") and wchan.endswith("pipe_write"):
            return
        assert proc.poll() is None and time.monotonic() < deadline, \
            f"tdtop not blocked on its full pipe ({queued} of {size} bytes, in {wchan!r})"
        time.sleep(0.02)


def test_stop_signal_while_output_blocks_loses_nothing():
    """An interval of 1,500 thread rows into a pipe nobody reads yet: tdtop
    blocks writing. Stop signals then (several, as an impatient user or a
    supervisor sends them) must not cut into what it writes: once read,
    every line is whole JSON and tdtop exits 0."""
    require_root()
    with Workload("threads", 1500, 0) as wl:
        wl.ready()
        # -d 1: the threads start and block (some 40 ms) well inside the
        # first interval, so the one tdtop blocks on holds all their rows
        proc = subprocess.Popen([TDTOP, "-b", "-o", "json", "-H", "-e", "cpu-clock",
                                 "-d", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = LineReader(proc.stderr)
        out = bytearray()
        try:
            # attached once the baseline interval is out (EOF if it failed)
            _read_stdout(proc, out, lambda data: b"\n" in data, 20)
            wl.run()
            # the threads' interval is some 250 KiB: the 64 KiB pipe fills
            _wait_blocked_writing(proc, 20)
            for _ in range(5):
                proc.send_signal(signal.SIGINT)
                time.sleep(0.02)
            _read_stdout(proc, out, lambda data: False, 30)
            proc.wait(20)
            err.join(5)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()
            proc.stderr.close()
        wl.finish()
    assert proc.returncode == 0, (proc.returncode, err.data().decode(errors="replace"))
    ivs = group_intervals(parse_json_lines(bytes(out).splitlines(keepends=True)))
    tids = {r["tid"] for _, rs in ivs for r in rs if r.get("pid") == wl.pid}
    mine = [iv for iv, rs in ivs if any(r.get("pid") == wl.pid for r in rs)]
    assert len(tids) == 1501, (
        f"rows of {len(tids)} of the workload's 1,501 threads: output lost" +
        ("" if mine and mine[0]["ts"] >= wl.done_time else
         " (or the threads ran past the end of the interval tdtop blocked on: too slow a go)"))


# ---- the contract: JSON and CSV carry the same fields (docs/output.md) ----------------------

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "recordings")
# CSV columns that stay filled where JSON leaves the field out
CSV_ONLY = ("exited", "raw.")


def _flatten(obj, prefix=""):
    """(dotted key, value) of every leaf of a JSON object."""
    for key, val in obj.items():
        if isinstance(val, dict):
            yield from _flatten(val, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", val


def _csv_dicts(text):
    """Every CSV line as a dict, checking each header has no duplicate name."""
    lines = text.splitlines(keepends=True)
    header, out = None, []
    for row in csv.reader(lines):
        if header is None or row == header or row[:2] == ["ts", "type"]:
            header = row
            assert len(set(header)) == len(header), \
                f"duplicate columns: {sorted(c for c in header if header.count(c) > 1)}"
            continue
        assert len(row) == len(header), (row, header)
        out.append(dict(zip(header, row)))
    # DictReader sees the same names (no column silently dropped)
    names = csv.DictReader(io.StringIO(text, newline="")).fieldnames
    assert names and len(names) == len(set(names)), names
    return out


def _same(json_val, cell, key):
    if json_val is None:
        return cell == ""
    if isinstance(json_val, bool):
        return cell == ("1" if json_val else "0")
    if isinstance(json_val, (int, float)):
        return cell != "" and float(cell) == float(json_val)
    return cell == json_val


def _assert_same_fields(json_text, csv_text, what):
    """Line by line: every JSON field is the CSV column of its dotted name
    with the same value; what JSON does not have is empty in CSV."""
    objs = parse_json_lines(json_text.encode().splitlines(keepends=True))
    lines = _csv_dicts(csv_text)
    assert objs and len(objs) == len(lines), f"{what}: {len(objs)} JSON, {len(lines)} CSV lines"
    assert sum(o["type"] == "interval" for o in objs) >= 1, what
    for obj, line in zip(objs, lines):
        fields = dict(_flatten(obj))
        if obj["type"] != "interval":
            fields["ts"] = line["ts"]       # rows carry their interval's ts in CSV only
        for key, val in fields.items():
            assert key in line, f"{what}: JSON field {key} is no CSV column ({sorted(line)})"
            assert _same(val, line[key], key), f"{what}: {key}: JSON {val!r}, CSV {line[key]!r}"
        extra = {k: v for k, v in line.items() if k not in fields and v != ""
                 and not k.startswith(CSV_ONLY)}
        assert not extra, f"{what}: CSV has {extra} that the JSON {obj['type']} has not"
        if obj["type"] == "interval":
            assert obj["schema"] == 1, obj


def _report(*args):
    res = subprocess.run([TDTOP, "report", *args], capture_output=True, timeout=30)
    assert res.returncode == 0, (args, res.stderr)
    return res.stdout.decode("utf-8")


def _both_formats(path, *args):
    _assert_same_fields(_report("-o", "json", *args, path), _report("-o", "csv", *args, path),
                        f"{os.path.basename(path)} {' '.join(args)}")


def test_csv_has_every_json_field_of_replays():
    """Replays give the same intervals twice: compared field by field."""
    for name, args in (("basic-v2.jsonl", ()), ("basic-v2.jsonl", ("-H",)),
                       ("basic.jsonl.gz", ()), ("cgroups-v2.jsonl", ("--by", "cgroup")),
                       ("cgroups-v2.jsonl", ())):
        _both_formats(os.path.join(FIXTURES, name), *args)


def test_csv_of_topdown_has_no_duplicate_slots():
    """perf_metrics counts an event called "slots": CSV used to name two
    columns so. Level 2, multiplexed counts (raw) and AMD's SMT contention."""
    ev = [("slots", "slots", 1), ("topdown-retiring", "retiring", 1),
          ("topdown-bad-spec", "bad-spec", 1), ("topdown-fe-bound", "fe-bound", 1),
          ("topdown-be-bound", "be-bound", 1), ("topdown-heavy-ops", "heavy-ops", 1),
          ("topdown-br-mispredict", "br-mispredict", 1), ("topdown-fetch-lat", "fetch-lat", 1),
          ("topdown-mem-bound", "mem-bound", 1)]
    zen = [("ls_not_halted_cyc", "cycles", 1), ("de_src_op_disp.all", "dispatched", 1),
           ("ex_ret_ops", "retired-ops", 1), ("no_ops_from_frontend", "no-ops-frontend", 1),
           ("backend_stalls", "backend-stalls", 1), ("smt_contention", "smt-contention", 1)]
    with tempfile.TemporaryDirectory() as d:
        spr = os.path.join(d, "spr.jsonl")
        rec.recording(spr, rec.header(ev, [("cpu", "perf_metrics", 0, 9, 0, False)],
                                      "perf_metrics"),
                      [(10, "alu", [1020, 700, 50, 150, 100, 100, 30, 120, 60]),
                       (12, "few", [500, 100, 100, 100, 200, 0, 0, 0, 0])])
        for level in ("1", "2"):
            _both_formats(spr, "-l", level)
        out = _report("-o", "csv", "-l", "2", spr)
        header = next(csv.reader(io.StringIO(out)))
        assert header.count("slots") == 1 and "counts.slots" in header, header
        # fractions to 4 decimals: 0.05 is 0.05, never 0.050000000000000044
        assert "0.05000" not in out and ",0.05," in out, out
        amd = os.path.join(d, "zen.jsonl")
        rec.recording(amd, rec.header(zen, [("cpu", "amd_zen", 0, 6, 6, False)], "amd_zen"),
                      [(40, "zen", [1000, 3600, 3000, 1200, 900, 300])])
        _both_formats(amd)
        assert "topdown.smt_contention" in _report("-o", "csv", amd).splitlines()[0]


def test_csv_has_every_json_field_live():
    """Live: the same columns as the JSON fields, tdtop's own cost included."""
    require_root()
    res = {}
    for fmt in ("json", "csv"):
        r = subprocess.run([TDTOP, "-b", "-o", fmt, "-e", ",".join(EVENTS), "-n", "2",
                            "-d", "0.2"], capture_output=True, timeout=30)
        assert r.returncode == 0, r.stderr
        res[fmt] = r.stdout.decode("utf-8")
    recs = parse_json_lines(res["json"].encode().splitlines(keepends=True))
    lines = _csv_dicts(res["csv"])
    cols = set(lines[0])
    for obj in recs:
        missing = {k for k, _ in _flatten(obj)} - cols
        assert not missing, f"JSON {obj['type']} fields without a CSV column: {missing}"
    ivs = [ln for ln in lines if ln["type"] == "interval"]
    assert len(ivs) == 2 and all(ln["schema"] == "1" and ln["pid"] == "" for ln in ivs), ivs
    assert all(ln["totals.cpu-clock"] and ln["switches"] for ln in ivs), ivs
    for ln in lines:
        if ln["type"] == "process":
            assert ln["cpu_pct"] == "" or len(ln["cpu_pct"].partition(".")[2]) <= 2, ln


def test_notice_once():
    """Without TopDown (as here: no PMU), the ~200-character notice is said
    once on stderr and once in the output, not in every interval."""
    require_root()
    if os.path.exists("/sys/bus/event_source/devices/cpu"):
        raise SkipTest("this machine has a core PMU: no fallback notice")
    r = subprocess.run([TDTOP, "-b", "-o", "json", "-n", "3", "-d", "0.2"], capture_output=True,
                       timeout=30)
    assert r.returncode == 0, r.stderr
    ivs = group_intervals(parse_json_lines(r.stdout.splitlines(keepends=True)))
    assert len(ivs) == 3
    assert "TopDown unavailable" in ivs[0][0].get("notice", ""), ivs[0][0]
    assert not any("notice" in iv for iv, _ in ivs[1:]), [iv.get("notice") for iv, _ in ivs]
    assert r.stderr.decode().count("TopDown unavailable") == 1, r.stderr
    r = subprocess.run([TDTOP, "-b", "-n", "3", "-d", "0.2"], capture_output=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().count("note: TopDown unavailable") == 1, r.stdout
