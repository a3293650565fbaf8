# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The interactive view as a user meets it: tdtop in a tmux pane of fixed
size, driven by keys and read back with capture-pane. Checks the header and
rows, sorting, the PID and name filters, help, resize, colours, htop's
function keys, narrow terminals, TERM=dumb, the saved settings, and that
every way out (q, SIGTERM) gives back a sane terminal at once; a -s without
values is said on the status line, and a replay shows the users recorded.
Each pane has its own XDG_CONFIG_HOME: no test reads or writes the user's
settings."""
import os
import re
import shlex
import shutil
import signal
import tempfile
import time

from tdfixtures import PROMPT_SHOWN, Cgroups, Pane, assert_sane_terminal
from tdtest import TDTOP, SkipTest, Workload, children, require_root

BURN_NAME = "tduiburn"
# how long the view may take to answer a key on a loaded machine
KEY_S = 10


class TuiPane(Pane):
    """A pane whose tdtop has a settings file of its own (in *config*, else
    in a directory removed with the pane)."""

    def __init__(self, width=120, height=40, env=None, config=None):
        self.own_config = config is None
        self.config = config or tempfile.mkdtemp(prefix="tdtop-tui-cfg-")
        try:
            super().__init__(width, height, env={"XDG_CONFIG_HOME": self.config, **(env or {})})
        except BaseException:
            self._drop_config()
            raise

    def _drop_config(self):
        if self.own_config:
            shutil.rmtree(self.config, ignore_errors=True)

    def __exit__(self, *exc):
        super().__exit__(*exc)
        self._drop_config()


def table_rows(lines):
    """The lines below the column titles down to the key bar."""
    rows = []
    for line in lines:
        if line.startswith("F1Help"):
            break
        if line.strip():
            rows.append(line)
    return rows


class Table:
    """The column titles and data rows of the main screen."""

    def __init__(self, screen):
        self.header = None
        self.rows = []
        for i, line in enumerate(screen):
            if line.split()[:1] == ["PID"] and "COMM" in line.split():
                self.header = line
                self.rows = table_rows(screen[i + 1:])
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
    with Workload("burn", 60000, name=BURN_NAME, now=True) as wl, TuiPane() as pane:
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
    with TuiPane(120, 40) as pane:
        wide = start(pane)
        pane.resize(80, 24)

        # tmux cuts the old screen to the new width at once: the redraw is the
        # first header made only of whole column titles
        def narrow(s):
            t = Table(s)
            return t.header and len(s) <= 25 and t.header != wide.header and \
                set(t.header.split()) <= set(wide.header.split()) and t

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
    with TuiPane() as pane:
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
    with TuiPane() as pane:
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
        with TuiPane(env={"NO_COLOR": no_color} if no_color else None) as pane:
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
                self.rows = table_rows(screen[i + 1:])
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
    one CPU, below its parent in the tree (F5) and after it by name; the
    path filter, Enter for its processes, Esc back, t for threads."""
    require_root()
    with Cgroups("burn") as cg, Workload("burn", 60000, name=BURN_NAME, now=True) as wl, \
            TuiPane() as pane:
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

        # F5: the tree, each child right after its parent, indented
        pane.keys("F5")
        t = pane.wait_for(cg_table(lambda t: status_line(pane.screen(), "cgroups as a tree")
                                   and t.row(burn) and t.row(cg.rel())), KEY_S, "cgroup tree")
        top, child = t.row(cg.rel()), t.row(burn)
        assert child[0] == top[0] + 1 and child[1] == top[1] + 2, t.rows
        pane.keys("F5")
        pane.wait_for(lambda s: status_line(s, "cgroups sorted, with full paths"), KEY_S, "flat")
        # flat and sorted by name: full paths in path order, none indented
        pane.keys("Down")   # a key: the message makes way for the status line
        sort_by(pane, "name")
        t = pane.wait_for(cg_table(lambda t: status_line(pane.screen(), "sort name ")
                                   and t.row(burn)), KEY_S, "sort by name")
        names = t.names()
        assert names == sorted(names) and all(n == n.lstrip() for n in names), t.rows
        assert t.row(burn)[0] == t.row(cg.rel())[0] + 1, t.rows

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
    with TuiPane() as pane:
        start(pane)
        pane.keys("c")
        pane.wait_for(lambda s: status_line(
            s, "start tdtop with --by cgroup or -c PATH for the cgroup view"), KEY_S, "message")
        assert table_ready(pane.screen()), "\n".join(pane.screen())
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def test_tui_empty_cgroup_view():
    """A cgroup none of whose tasks ran: no column titles, and a line that says so."""
    require_root()
    with Cgroups("burn") as cg, TuiPane() as pane:
        cmd = " ".join(shlex.quote(a) for a in
                       [TDTOP, "--by", "cgroup", "-c", cg.rel("burn"), "-d", "0.5"])
        pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
        pane.wait_for(lambda s: status_line(s, "no cgroups charged yet"), 15, "empty view")
        screen = pane.screen()
        assert Table(screen).header is None and CgTable(screen).header is None, \
            "\n".join(screen)
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


# ---- htop's keys ----

def keybar(screen):
    return any(line.startswith("F1Help") for line in screen)


def test_tui_function_keys():
    """F1 help, F3 search, F4 filter and Esc, F5 tree, F6 sort menu, I, P, M, u,
    F9 with its confirmation (n keeps the process, y sends SIGTERM), F10 quit."""
    require_root()
    with Workload("burn", 60000, name=BURN_NAME, now=True) as wl, TuiPane() as pane:
        wl.ready()
        start(pane)
        assert keybar(pane.screen()), "\n".join(pane.screen())
        pane.keys("F1")
        pane.wait_for(lambda s: status_line(s, "Press any key to return"), KEY_S, "help")
        pane.keys("x")
        pane.wait_for(table_ready, KEY_S, "table after help")

        # F6: the sort menu; Home is pid
        pane.keys("F6")
        pane.wait_for(lambda s: status_line(s, "Sort by") and status_line(s, "Enter"), KEY_S,
                      "sort menu")
        pane.keys("Home", "Enter")
        t = pane.wait_for(lambda s: status_line(s, "sort pid ") and table_ready(s), KEY_S,
                          "sort by pid")
        # I: the other way round
        pane.keys("I")
        pane.keys("Down")   # the message goes, the status line shows the order
        t = pane.wait_for(lambda s: status_line(s, "sort pid reversed") and
                          (x := table_ready(s)) and len(x.rows) > 1 and x, KEY_S, "reversed")
        assert t.pids() == sorted(t.pids(), reverse=True), t.pids()
        pane.keys("P")
        pane.wait_for(lambda s: status_line(s, "sort cpu"), KEY_S, "P sorts by CPU")
        pane.keys("M")
        pane.wait_for(lambda s: status_line(s, "no memory column"), KEY_S, "M says why not")

        # F4 filters by name, Esc clears it
        pane.keys("F4")
        pane.wait_for(lambda s: status_line(s, "Show commands containing"), KEY_S, "filter prompt")
        pane.text(BURN_NAME)
        pane.keys("Enter")
        t = pane.wait_for(lambda s: status_line(s, f"comm '{BURN_NAME}'") and table_ready(s),
                          5, "filtered")
        assert t.pids() == [wl.pid], t.rows
        pane.keys("Escape")
        pane.wait_for(lambda s: status_line(s, "filter cleared") and
                      (x := Table(s)).rows and len(x.rows) > 1, KEY_S, "filter cleared")

        # F5: processes with their threads
        pane.keys("F5")
        t = pane.wait_for(lambda s: status_line(s, "processes with their threads") and
                          (x := table_ready(s)) and "TID" in x.header.split() and x, KEY_S, "tree")
        pane.keys("F5")
        pane.wait_for(lambda s: (x := table_ready(s)) and "TID" not in x.header.split(), KEY_S,
                      "flat again")

        # u: one user's processes
        pane.keys("u")
        pane.wait_for(lambda s: status_line(s, "Show the tasks of") and
                      status_line(s, "all users") and status_line(s, "root"), KEY_S, "user menu")
        # the first user after "all users", whoever it is
        pane.keys("Down", "Enter")
        t = pane.wait_for(lambda s: status_line(s, "user ") and table_ready(s), KEY_S, "user filter")
        user = t.header.split().index("USER")
        assert all(r.split()[user] == t.rows[0].split()[user] for r in t.rows), t.rows
        pane.keys("Escape")
        pane.wait_for(lambda s: status_line(s, "filter cleared"), KEY_S, "user filter cleared")

        # F3 jumps to the burner; F9 names it before anything is sent
        pane.keys("F3")
        pane.wait_for(lambda s: status_line(s, "Search:"), KEY_S, "search prompt")
        pane.text(BURN_NAME)
        pane.keys("Enter", "F9")
        pane.wait_for(lambda s: status_line(s, f"Send a signal to PID {wl.pid} ({BURN_NAME})"),
                      5, "signal menu for the burner")
        pane.keys("Enter")
        pane.wait_for(lambda s: status_line(
            s, f"Send SIGTERM to PID {wl.pid} '{BURN_NAME}'? y sends"), KEY_S, "confirmation")
        pane.keys("n")
        pane.wait_for(lambda s: status_line(s, "SIGTERM not sent"), KEY_S, "cancelled")
        assert wl.proc.poll() is None, "the burner got a signal"
        pane.keys("F9", "Enter")
        pane.wait_for(lambda s: status_line(s, "y sends"), KEY_S, "confirmation")
        pane.keys("y")
        pane.wait_for(lambda s: status_line(s, f"SIGTERM sent to PID {wl.pid}"), KEY_S, "sent")
        assert wl.proc.wait(5) == -signal.SIGTERM
        pane.keys("F10")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def replay(pane, *args):
    """The basic recording, replayed to its end: the same interval at every width."""
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                           "recordings", "basic.jsonl")
    cmd = " ".join(shlex.quote(a) for a in [TDTOP, "report", "-d", "0.01", *args, fixture])
    pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
    return pane.wait_for(lambda s: status_line(s, "END") and table_ready(s), 15, "replay end")


def fields(line):
    """A header line's fields: what two spaces separate."""
    return [f for f in re.split(r"  +", line.strip()) if f]


def test_tui_narrow_layout():
    """At 60 columns every header field and every column is whole: each is
    one the wide screen shows too, for the same interval; the key bar goes
    on a tiny terminal, and Right shows the columns left out."""
    require_root()
    with TuiPane(200, 30) as wide_pane:
        wide = replay(wide_pane)
        wide_screen = wide_pane.screen()
    with TuiPane(60, 24) as pane:
        t = replay(pane)
        screen = pane.screen()
        assert all(len(line) <= 60 for line in screen), "\n".join(screen)
        for prefix in ("interval ", "Totals"):
            narrow = next(line for line in screen if line.startswith(prefix))
            full = next(line for line in wide_screen if line.startswith(prefix))
            assert set(fields(narrow)) <= set(fields(full)), (narrow, full)
        titles = t.header.split()
        assert titles[:2] == ["PID", "COMM"] and set(titles) <= set(wide.header.split()), \
            (t.header, wide.header)
        assert len(titles) < len(wide.header.split())
        # each row's cells are the wide row's, none cut
        for row in t.rows:
            pid = row.split()[0]
            full = next(r for r in wide.rows if r.split()[0] == pid)
            cells = row[t.header.index("CPU%") - 1:].split()
            assert set(cells) <= set(full.split()), (row, full)
        assert keybar(screen), "\n".join(screen)
        # Right: the columns left out come into view, whole
        pane.keys("Right", "Right", "Right")
        t = pane.wait_for(lambda s: status_line(s, "scrolled (Left)") and table_ready(s), KEY_S,
                          "scrolled")
        assert "page-faults" in t.header.split() or "cpu-clock/s" in t.header.split(), t.header
        assert set(t.header.split()) <= set(wide.header.split()), t.header
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")
    with TuiPane(38, 9) as tiny:
        replay(tiny)
        assert not keybar(tiny.screen()), "\n".join(tiny.screen())
        tiny.keys("q")
        tiny.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")


def test_tui_term_dumb_plain_text():
    """TERM=dumb: no cursor addressing, so each screen is printed as text
    lines after a note; keys come from the lines typed, q and Enter quits."""
    require_root()
    with Workload("burn", 60000, name=BURN_NAME, now=True) as wl, \
            TuiPane(100, 40, env={"TERM": "dumb"}) as pane:
        wl.ready()
        # one row and a long delay: the note stays on screen
        cmd = " ".join(shlex.quote(a) for a in [TDTOP, "-d", "5", "-p", str(wl.pid)])
        pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
        pane.wait_for(lambda s: status_line(s, "TERM=dumb cannot place the cursor: plain text")
                      and (x := Table(s)).rows and x.pids() == [wl.pid], 15, "plain screen")
        screen = pane.screen(escapes=True)
        assert not any("\x1b" in line for line in screen), screen
        assert not keybar(screen), "\n".join(screen)
        # a command typed as a line: the name filter, shown at once
        pane.line(f"/{BURN_NAME}")
        pane.wait_for(lambda s: status_line(s, f"comm '{BURN_NAME}'"), KEY_S, "filter from a line")
        pane.line("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")
        assert_sane_terminal(pane)


def rc_file(config):
    return os.path.join(config, "tdtop", "tdtoprc")


def test_tui_settings_round_trip():
    """What was changed on screen (order, tree) is saved on quit and shown at
    the next start; an option given on the command line is not saved and
    wins over the file; a damaged file is ignored with one line on stderr
    and left as it is."""
    require_root()
    config = tempfile.mkdtemp(prefix="tdtop-tui-rc-")
    try:
        with TuiPane(config=config) as pane:
            start(pane, "-s", "pid")
            pane.keys("I", "F5")
            pane.wait_for(lambda s: status_line(s, "processes with their threads"), KEY_S, "tree")
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")
        with open(rc_file(config)) as f:
            text = f.read()
        assert "reverse=1\n" in text and "tree=1\n" in text, text
        # -s and -d came from the command line and nobody changed them
        assert "sort=" not in text and "delay=" not in text, text
        with TuiPane(config=config) as pane:
            pane.line(f"clear; {shlex.quote(TDTOP)}; echo TDTOP-EXIT=$?")
            pane.wait_for(lambda s: status_line(s, "sort cpu reversed  process tree  delay 1s")
                          and table_ready(s), 15, "settings restored")
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")
        # the command line wins: -d, and -H has no tree
        with open(rc_file(config), "a") as f:
            f.write("delay=3\n")
        with TuiPane(config=config) as pane:
            start(pane, "-H")
            pane.wait_for(lambda s: status_line(s, "sort cpu reversed  threads") and
                          status_line(s, "delay 0.5s"), KEY_S, "options override")
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")
        # damaged: ignored whole, said once the screen is closed, not rewritten
        with open(rc_file(config), "w") as f:
            f.write("reverse=1\nlevel=9\n")
        with TuiPane(config=config) as pane:
            start(pane)
            assert status_line(pane.screen(), "sort cpu  processes"), "\n".join(pane.screen())
            pane.keys("I", "q")
            screen = pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0") and s, KEY_S, "exit")
            said = [line for line in screen if "settings ignored" in line]
            assert len(said) == 1 and "level wants 1 or 2" in "".join(screen), "\n".join(screen)
        with open(rc_file(config)) as f:
            assert f.read() == "reverse=1\nlevel=9\n"
    finally:
        shutil.rmtree(config, ignore_errors=True)


def test_tui_sort_key_without_values_says_so():
    """-s backend without TopDown: the screen sorts by CPU and says why on
    its status line (batch mode refuses it, exit 2)."""
    require_root()
    if os.path.exists("/sys/bus/event_source/devices/cpu"):
        raise SkipTest("this machine has a core PMU: TopDown may be measured")
    with TuiPane() as pane:
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
        with TuiPane() as pane:
            cmd = f"clear; {shlex.quote(TDTOP)} report {shlex.quote(os.path.join(rec, name))}"
            pane.line(f"{cmd}; echo TDTOP-EXIT=$?")
            users = pane.wait_for(_users, 15, f"{name}: the table with USER")
            assert users == want, f"{name}: {users}"
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), KEY_S, "exit")
