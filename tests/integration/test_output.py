# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Machine-readable output stays parseable whatever the data: every JSON line
is an object of the documented shape, CSV keeps its columns, a comm made of
quotes, backslashes, a newline, control bytes and invalid UTF-8 changes
neither, and a stop signal while output is blocked loses none of it."""
import csv
import fcntl
import io
import os
import select
import signal
import struct
import subprocess
import termios
import time

from tdtest import (TDTOP, LineReader, Tdtop, Workload, group_intervals, observe, parse_json_lines,
                    require_root)

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
    assert all(ev in header for ev in EVENTS), header
    for key in ("pid", "comm", "cpu_ns"):
        assert key in header, header
    for i, rec in enumerate(recs[1:], 2):
        if rec == header:
            continue    # a repeated header is allowed
        assert len(rec) == len(header), \
            f"record {i}: {len(rec)} fields, header {len(header)}: {rec}"
        for ev in EVENTS:
            float(rec[header.index(ev)])
        int(rec[header.index("cpu_ns")])
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
