# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The interactive view as a user meets it: tdtop in a tmux pane of fixed
size, driven by keys and read back with capture-pane. Checks the header and
rows, sorting, the PID and name filters, help, resize, colours, and that
every way out (q, SIGTERM) gives back a sane terminal at once; a -s
without values is said on the status line, and a replay shows the users
recorded."""
import os
import re
import shlex
import time

from tdfixtures import PROMPT_SHOWN, Cgroups, Pane, assert_sane_terminal
from tdtest import TDTOP, SkipTest, Workload, children, require_root

BURN_NAME = "tduiburn"
# how long the view may take to answer a key on a loaded machine
KEY_S = 10


class Table:
    """The column titles and data rows of the main screen."""

    def __init__(self, screen):
        self.header = None
        self.rows = []
        for i, line in enumerate(screen):
            if line.split()[:1] == ["PID"] and "COMM" in line.split():
                self.header = line
                self.rows = [r for r in screen[i + 1:] if r.strip()]
                break

    def _end(self, title):
        return self.header.index(title) + len(title)

    def pids(self):
        return [int(r.split()[0]) for r in self.rows]

    def comms(self):
        start = self.header.index("COMM")
        return [r[start:start + 15].rstrip() for r in self.rows]

    def cpu(self):
        """The right-aligned CPU% column."""
        end = self._end("CPU%")
        return [float(r[:end].split()[-1]) for r in self.rows]


def table_ready(screen):
    t = Table(screen)
    return t if t.header and t.rows else None


def status_line(screen, text):
    return any(text in line for line in screen)


def sort_key(screen):
    """The sort key the status line names, or None."""
    for line in screen:
        m = re.search(r"\bsort (\S+)(?: |$)", line)
        if m:
            return m.group(1)
    return None


def sort_by(pane, key):
    """Presses < until the status line says sort *key*, waiting for the
    redraw after each press (a press too many would walk past it)."""
    for _ in range(50):
        now = pane.wait_for(sort_key, KEY_S, "the sort key")
        if now == key:
            return
        pane.keys("<")
        pane.wait_for(lambda s: sort_key(s) not in (None, now), KEY_S, f"a sort key after {now}")
    raise AssertionError(f"no sort key {key!r} after 50 presses of <")


def start(pane, *args, delay="0.5"):
    cmd = " ".join(shlex.quote(a) for a in [TDTOP, "-d", delay, *args])
    pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
    return pane.wait_for(table_ready, 15, "table")


def tdtop_pid(pane):
    kids = [p for p in children(pane.shell_pid())
            if os.path.realpath(f"/proc/{p}/exe") == os.path.realpath(TDTOP)]
    assert len(kids) == 1, f"tdtop processes under the shell: {kids}"
    return kids[0]


def test_tui_screen_sort_filters_help():
    require_root()
    with Workload("burn", 60000, name=BURN_NAME, now=True) as wl, Pane() as pane:
        wl.ready()
        t = start(pane)
        screen = pane.screen()
        assert screen[0].startswith("tdtop - "), screen[0]
        assert any(line.startswith("interval ") for line in screen), "\n".join(screen)
        assert status_line(screen, "sort cpu "), "\n".join(screen)
        t = pane.wait_for(lambda s: (x := Table(s)).rows and wl.pid in x.pids() and x, 10,
                          "the workload's row")
        assert BURN_NAME in t.comms()[t.pids().index(wl.pid)]

        # by CPU: descending; a spinning process is near the top
        t = pane.wait_for(table_ready, KEY_S, "table")
        cpu = t.cpu()
        assert cpu == sorted(cpu, reverse=True), f"not by CPU: {cpu}"
        assert wl.pid in t.pids()[:5], f"burner {wl.pid} not on top: {t.rows[:5]}"

        # < walks back through the sort keys to pid: ascending PIDs
        sort_by(pane, "pid")
        t = pane.wait_for(lambda s: status_line(s, "sort pid ") and table_ready(s), 5,
                          "sort by pid")
        pids = t.pids()
        assert pids == sorted(pids) and len(pids) > 1, f"not by PID: {pids}"

        # a PID filter leaves that process only
        pane.keys("p")
        pane.wait_for(lambda s: status_line(s, "Show PIDs"), KEY_S, "PID prompt")
        pane.text(str(wl.pid))
        pane.keys("Enter")
        t = pane.wait_for(lambda s: status_line(s, f"pid {wl.pid}") and table_ready(s), 5,
                          "PID filter")
        assert t.pids() == [wl.pid], t.rows
        # invalid input keeps the filter and says why
        pane.keys("p")
        pane.text("12x")
        pane.keys("Enter")
        pane.wait_for(lambda s: status_line(s, "invalid PID '12x'"), KEY_S, "PID error")
        assert Table(pane.screen()).pids() == [wl.pid]
        pane.keys("p", "Enter")
        t = pane.wait_for(lambda s: (x := Table(s)).rows and len(x.rows) > 1 and x, 5,
                          "all rows again")

        # a name filter keeps the matching commands
        pane.keys("/")
        pane.text(BURN_NAME[:6])
        pane.keys("Enter")
        t = pane.wait_for(lambda s: status_line(s, f"comm '{BURN_NAME[:6]}'") and table_ready(s),
                          5, "name filter")
        assert t.comms() and all(BURN_NAME[:6] in c for c in t.comms()), t.rows
        assert wl.pid in t.pids()
        pane.keys("/")
        pane.text("no-such-command")
        pane.keys("Enter")
        pane.wait_for(lambda s: status_line(s, "no task matches the filter"), KEY_S, "empty table")
        pane.keys("/", "Enter")
        pane.wait_for(lambda s: (x := Table(s)).rows and len(x.rows) > 1, KEY_S, "all rows again")

        # help opens over the table and any key closes it
        pane.keys("h")
        pane.wait_for(lambda s: status_line(s, "Press any key to return"), KEY_S, "help")
        assert Table(pane.screen()).header is None
        pane.keys("x")
        pane.wait_for(lambda s: table_ready(s) and not status_line(s, "Press any key"), 5,
                      "table after help")

        # Enter shows the selected process; Esc comes back
        pane.keys("Home", "Enter")
        pane.wait_for(lambda s: status_line(s, "Esc, Enter or q: back"), KEY_S, "detail view")
        pane.keys("Escape")
        pane.wait_for(table_ready, KEY_S, "table after the detail view")
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def test_tui_resize_redraws():
    require_root()
    with Pane(120, 40) as pane:
        wide = start(pane)
        pane.resize(80, 24)

        def narrow(s):
            t = Table(s)
            return t.header and len(s) <= 25 and t.header != wide.header and t

        t = pane.wait_for(narrow, KEY_S, "redraw at 80x24")
        titles = t.header.split()
        # whole columns dropped from the right, not a clipped line
        assert set(titles) <= set(wide.header.split()), (wide.header, t.header)
        assert len(titles) < len(wide.header.split()), (wide.header, t.header)
        assert len(t.header.rstrip()) <= 80
        assert pane.screen()[0].startswith("tdtop - ")
        pane.resize(120, 40)
        pane.wait_for(lambda s: (x := Table(s)).header and x.header.split() == wide.header.split(),
                      5, "redraw at 120x40")
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def test_tui_quit_restores_terminal():
    """q ends tdtop at once, not at the end of the interval: with 3 s
    intervals and q pressed as the first one is drawn, a tdtop that
    waited would take some 3 s; 2 s leave room for a loaded machine."""
    require_root()
    with Pane() as pane:
        start(pane, delay="3")
        pid = tdtop_pid(pane)
        t0 = time.monotonic()
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit after q")
        took = time.monotonic() - t0
        assert took < 2.0, f"q took {took:.2f}s"
        assert not os.path.exists(f"/proc/{pid}"), f"tdtop {pid} still there"
        screen = pane.screen()
        assert any(line.startswith(PROMPT_SHOWN) for line in screen), "\n".join(screen)
        assert_sane_terminal(pane)


def test_tui_sigterm_restores_terminal():
    require_root()
    with Pane() as pane:
        start(pane)
        pid = tdtop_pid(pane)
        os.kill(pid, 15)
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit after SIGTERM")
        assert_sane_terminal(pane)


COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-7]|4[0-7]|38;5;\d+|48;5;\d+)m")


def test_tui_no_color():
    """NO_COLOR (https://no-color.org) turns every colour off; without it the
    sorted column's title is coloured."""
    require_root()
    for no_color, want in ((None, True), ("1", False)):
        with Pane(env={"NO_COLOR": no_color} if no_color else None) as pane:
            start(pane)
            raw = "\n".join(pane.screen(escapes=True))
            assert bool(COLOUR.search(raw)) == want, f"NO_COLOR={no_color}: {raw[:2000]!r}"
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


# ---- the cgroup view ----

class CgTable:
    """The column titles and rows of the cgroup view."""

    def __init__(self, screen):
        self.header = None
        self.rows = []
        for i, line in enumerate(screen):
            if line.split()[:2] == ["CGROUP", "TASKS"]:
                self.header = line
                self.rows = [r for r in screen[i + 1:] if r.strip()]
                break

    def names(self):
        """CGROUP cells with their indentation."""
        end = self.header.index("TASKS") - 1
        return [r[:end].rstrip() for r in self.rows]

    def cpu(self):
        end = self.header.index("CPU%") + len("CPU%")
        return [float(r[:end].split()[-1]) for r in self.rows]

    def row(self, name):
        """(index, indentation, CPU%) of the row named *name*, or None."""
        for i, (n, cpu) in enumerate(zip(self.names(), self.cpu())):
            if n.strip() == name:
                return i, len(n) - len(n.lstrip()), cpu
        return None


def cg_table(pred=lambda t: True):
    def ready(screen):
        t = CgTable(screen)
        return t if t.header and t.rows and pred(t) else None
    return ready


def test_tui_cgroup_view():
    """--by cgroup: a burning process's cgroup shows with its name and about
    one CPU, under its parent in the name order; the path filter, Enter for
    its processes, Esc back, t for threads."""
    require_root()
    with Cgroups("burn") as cg, Workload("burn", 60000, name=BURN_NAME, now=True) as wl, \
            Pane() as pane:
        wl.ready()
        cg.move(wl.pid, "burn")
        burn = cg.rel("burn")
        cmd = " ".join(shlex.quote(a) for a in [TDTOP, "--by", "cgroup", "-d", "0.5"])
        pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
        pane.wait_for(cg_table(), 15, "cgroup table")
        assert status_line(pane.screen(), "sort cpu  cgroups"), "\n".join(pane.screen())
        # a spinning task is up to one CPU, less while other work shares the machine
        t = pane.wait_for(cg_table(lambda t: (r := t.row(burn)) and 30 <= r[2] <= 105), 30,
                          f"{burn} at up to 100% CPU")
        assert t.row(cg.rel())[2] >= t.row(burn)[2] - 0.1, t.rows    # the parent sums it

        # by name the tree shows: the child right after its parent, indented
        sort_by(pane, "name")
        t = pane.wait_for(cg_table(lambda t: status_line(pane.screen(), "sort name ")
                                   and t.row(burn)), KEY_S, "sort by name")
        top, child = t.row(cg.rel()), t.row(burn)
        assert top and child[0] == top[0] + 1 and child[1] == top[1] + 2, t.rows

        # the name filter matches the path
        pane.keys("/")
        pane.wait_for(lambda s: status_line(s, "Show cgroups whose path contains"), 5,
                      "path prompt")
        pane.text(burn)
        pane.keys("Enter")
        t = pane.wait_for(cg_table(lambda t: len(t.rows) == 1), KEY_S, "path filter")
        assert [n.strip() for n in t.names()] == [burn], t.rows

        # Enter: the processes in the cgroup; Esc: the cgroups again
        pane.keys("Home", "Enter")
        t = pane.wait_for(lambda s: status_line(s, f"in {burn}") and table_ready(s), 5,
                          "the cgroup's processes")
        t = pane.wait_for(lambda s: (x := Table(s)).rows and x.pids() == [wl.pid] and x, 5,
                          "the workload alone")
        assert BURN_NAME in t.comms()[0], t.rows
        pane.keys("Escape")
        t = pane.wait_for(cg_table(lambda t: status_line(pane.screen(), "cgroups  path")), 5,
                          "back to the cgroups")
        assert [n.strip() for n in t.names()] == [burn], t.rows

        # t: threads of every cgroup; the command filter finds the workload's
        pane.keys("t")
        pane.wait_for(lambda s: (x := Table(s)).header and "TID" in x.header.split() and
                      len(x.rows) > 1, KEY_S, "threads")
        pane.keys("/")
        pane.text(BURN_NAME)
        pane.keys("Enter")
        t = pane.wait_for(lambda s: status_line(s, f"threads  comm '{BURN_NAME}'")
                          and table_ready(s), KEY_S, "threads filtered")
        assert wl.pid in t.pids() and "TID" in t.header.split(), t.rows
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def test_tui_cgroup_key_needs_cgroup_mode():
    """Without --by cgroup or -c the kernel does not charge per cgroup: c
    says how to start tdtop and the process table stays."""
    require_root()
    with Pane() as pane:
        start(pane)
        pane.keys("c")
        pane.wait_for(lambda s: status_line(
            s, "start tdtop with --by cgroup or -c PATH for the cgroup view"), KEY_S, "message")
        assert table_ready(pane.screen()), "\n".join(pane.screen())
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def test_tui_sort_key_without_values_says_so():
    """-s backend without TopDown: the screen sorts by CPU and says why on
    its status line (batch mode refuses it, exit 2)."""
    require_root()
    if os.path.exists("/sys/bus/event_source/devices/cpu"):
        raise SkipTest("this machine has a core PMU: TopDown may be measured")
    with Pane() as pane:
        start(pane, "-s", "backend")
        pane.wait_for(lambda s: status_line(
            s, "-s backend: TopDown is not measured; sorted by cpu"), KEY_S, "the note")
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def _users(screen):
    """{pid: USER} of the table on screen."""
    t = table_ready(screen)
    if not t or "USER" not in t.header.split():
        return None
    col = t.header.split().index("USER")
    return {int(r.split()[0]): r.split()[col] for r in t.rows}


def test_tui_report_shows_the_recorded_users():
    """A replay's USER is who owned the task where it was recorded ("-"
    for a version 1 recording), never what this machine says of the PID."""
    require_root()
    rec = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                       "recordings")
    for name, want in (("basic-v2.jsonl", {1: "root", 800: "alice"}),
                       ("basic.jsonl", {1: "-", 800: "-"})):
        with Pane() as pane:
            cmd = f"clear; {shlex.quote(TDTOP)} report {shlex.quote(os.path.join(rec, name))}"
            pane.line(f"{cmd}; echo TDTOP-EXIT=$?")
            users = pane.wait_for(_users, 15, f"{name}: the table with USER")
            assert users == want, f"{name}: {users}"
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")
