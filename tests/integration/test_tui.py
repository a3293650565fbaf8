# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The interactive view as a user meets it: tdtop in a tmux pane of fixed
size, driven by keys and read back with capture-pane. Checks the header and
rows, sorting, the PID and name filters, help, resize, colours, htop's
function keys, narrow terminals, TERM=dumb, the saved settings, and that
every way out (q, SIGTERM) gives back a sane terminal at once. Each pane
has its own XDG_CONFIG_HOME: no test reads or writes the user's settings."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time

from tdtest import TDTOP, SkipTest, Workload, require_root

TMUX = shutil.which("tmux")
PROMPT = "tui-test$ "
PROMPT_SHOWN = PROMPT.rstrip()   # capture-pane drops trailing blanks
BURN_NAME = "tduiburn"


class Pane:
    """A shell in a detached tmux session on a private server."""

    def __init__(self, width=120, height=40, env=None, config=None):
        require_root()
        if not TMUX:
            raise SkipTest("needs tmux")
        self.socket = f"tdtop-test-{os.getpid()}-{time.monotonic_ns()}"
        self.name = "tui"
        # the settings file of this pane only; a caller's directory outlives the pane
        self.own_config = config is None
        self.config = config or tempfile.mkdtemp(prefix="tdtop-tui-cfg-")
        env = {"XDG_CONFIG_HOME": self.config, **(env or {})}
        shell_env = ["env", f"PS1={PROMPT}"] + [f"{k}={v}" for k, v in env.items()]
        self._tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height),
                   *shell_env, "bash", "--norc", "--noprofile")
        try:
            self.wait_for(lambda s: any(line.startswith(PROMPT_SHOWN) for line in s), 10,
                          "shell prompt")
        except BaseException:
            self.__exit__()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=10)
        if self.own_config:
            shutil.rmtree(self.config, ignore_errors=True)

    def _tmux(self, *args):
        res = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, timeout=10)
        assert res.returncode == 0, f"tmux {' '.join(args)}: {res.stderr!r}"
        return res.stdout.decode("utf-8", "replace")

    def keys(self, *keys):
        """tmux key names (Enter, Up, NPage) or single characters."""
        self._tmux("send-keys", "-t", self.name, *keys)

    def text(self, s):
        self._tmux("send-keys", "-t", self.name, "-l", s)

    def line(self, s):
        self.text(s)
        self.keys("Enter")

    def screen(self, escapes=False):
        args = ["capture-pane", "-p", "-t", self.name] + (["-e"] if escapes else [])
        return self._tmux(*args).split("\n")

    def resize(self, width, height):
        self._tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def shell_pid(self):
        return int(self._tmux("display-message", "-p", "-t", self.name, "#{pane_pid}"))

    def wait_for(self, pred, timeout, what):
        deadline = time.monotonic() + timeout
        while True:
            s = self.screen()
            got = pred(s)
            if got:
                return got
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {timeout}s; screen:\n" + "\n".join(s))
            time.sleep(0.05)


def children(pid):
    """PIDs whose parent is pid."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # the comm field may hold spaces and parentheses: split after the last ')'
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(d))
    return out


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


def start(pane, *args):
    cmd = " ".join(shlex.quote(a) for a in [TDTOP, "-d", "0.5", *args])
    pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
    return pane.wait_for(table_ready, 15, "table")


def tdtop_pid(pane):
    kids = [p for p in children(pane.shell_pid())
            if os.path.realpath(f"/proc/{p}/exe") == os.path.realpath(TDTOP)]
    assert len(kids) == 1, f"tdtop processes under the shell: {kids}"
    return kids[0]


def assert_sane_terminal(pane):
    """The shell is back and the tty is in its normal (cooked, echoing) mode."""
    with tempfile.NamedTemporaryFile("r", suffix=".stty") as f:
        pane.line(f"stty -a > {f.name}; echo STTY-DONE")
        pane.wait_for(lambda s: any(line.startswith("STTY-DONE") for line in s), 5, "stty")
        flags = f.read().replace(";", " ").split()
    for flag in ("icanon", "echo", "isig", "icrnl", "opost"):
        assert flag in flags and f"-{flag}" not in flags, f"{flag} not restored: {flags}"


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
        t = pane.wait_for(table_ready, 5, "table")
        cpu = t.cpu()
        assert cpu == sorted(cpu, reverse=True), f"not by CPU: {cpu}"
        assert wl.pid in t.pids()[:5], f"burner {wl.pid} not on top: {t.rows[:5]}"

        # < walks back through the sort keys to pid: ascending PIDs
        for _ in range(20):
            if status_line(pane.screen(), "sort pid "):
                break
            pane.keys("<")
            time.sleep(0.2)
        t = pane.wait_for(lambda s: status_line(s, "sort pid ") and table_ready(s), 5,
                          "sort by pid")
        pids = t.pids()
        assert pids == sorted(pids) and len(pids) > 1, f"not by PID: {pids}"

        # a PID filter leaves that process only
        pane.keys("p")
        pane.wait_for(lambda s: status_line(s, "Show PIDs"), 5, "PID prompt")
        pane.text(str(wl.pid))
        pane.keys("Enter")
        t = pane.wait_for(lambda s: status_line(s, f"pid {wl.pid}") and table_ready(s), 5,
                          "PID filter")
        assert t.pids() == [wl.pid], t.rows
        # invalid input keeps the filter and says why
        pane.keys("p")
        pane.text("12x")
        pane.keys("Enter")
        pane.wait_for(lambda s: status_line(s, "invalid PID '12x'"), 5, "PID error")
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
        pane.wait_for(lambda s: status_line(s, "no task matches the filter"), 5, "empty table")
        pane.keys("/", "Enter")
        pane.wait_for(lambda s: (x := Table(s)).rows and len(x.rows) > 1, 5, "all rows again")

        # help opens over the table and any key closes it
        pane.keys("h")
        pane.wait_for(lambda s: status_line(s, "Press any key to return"), 5, "help")
        assert Table(pane.screen()).header is None
        pane.keys("x")
        pane.wait_for(lambda s: table_ready(s) and not status_line(s, "Press any key"), 5,
                      "table after help")

        # Enter shows the selected process; Esc comes back
        pane.keys("Home", "Enter")
        pane.wait_for(lambda s: status_line(s, "Esc, Enter or q: back"), 5, "detail view")
        pane.keys("Escape")
        pane.wait_for(table_ready, 5, "table after the detail view")
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


def test_tui_resize_redraws():
    require_root()
    with Pane(120, 40) as pane:
        wide = start(pane)
        pane.resize(80, 24)

        def narrow(s):
            t = Table(s)
            return t.header and len(s) <= 25 and t.header != wide.header and t

        t = pane.wait_for(narrow, 5, "redraw at 80x24")
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
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


def test_tui_quit_restores_terminal():
    require_root()
    with Pane() as pane:
        start(pane)
        pid = tdtop_pid(pane)
        t0 = time.monotonic()
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit after q")
        took = time.monotonic() - t0
        assert took < 1.0, f"q took {took:.2f}s"
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
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit after SIGTERM")
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
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


# ---- the cgroup view ----

def cgroup2_mount():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if right.split()[:1] == ["cgroup2"]:
                return left.split()[4]
    raise SkipTest("no cgroup v2 mount")


class TestCgroup:
    """tdtui-PID/burn under the cgroup v2 mount; on exit its processes go
    back to the root cgroup and both directories are removed."""

    def __init__(self):
        require_root()
        self.mount = cgroup2_mount()
        self.top = f"tdtui-{os.getpid()}"
        os.makedirs(os.path.join(self.mount, self.top, "burn"))

    def rel(self, child=""):
        """The path tdtop shows: below the cgroup root."""
        return "/" + self.top + ("/" + child if child else "")

    def move(self, pid, child="burn"):
        with open(os.path.join(self.mount, self.top, child, "cgroup.procs"), "w") as f:
            f.write(str(pid))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for d in (os.path.join(self.mount, self.top, "burn"), os.path.join(self.mount, self.top)):
            for _ in range(50):
                try:
                    with open(os.path.join(d, "cgroup.procs")) as f:
                        pids = f.read().split()
                    for pid in pids:
                        try:
                            with open(os.path.join(self.mount, "cgroup.procs"), "w") as f:
                                f.write(pid)
                        except OSError:
                            pass    # exited meanwhile
                    os.rmdir(d)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.1)     # a task still leaving


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
    one CPU, under its parent in the name order; the path filter, Enter for
    its processes, Esc back, t for threads."""
    require_root()
    with TestCgroup() as cg, Workload("burn", 60000, name=BURN_NAME, now=True) as wl, \
            Pane() as pane:
        wl.ready()
        cg.move(wl.pid)
        burn = cg.rel("burn")
        cmd = " ".join(shlex.quote(a) for a in [TDTOP, "--by", "cgroup", "-d", "0.5"])
        pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
        pane.wait_for(cg_table(), 15, "cgroup table")
        assert status_line(pane.screen(), "sort cpu  cgroups"), "\n".join(pane.screen())
        # a spinning task is about one CPU; others may share the machine for a while
        t = pane.wait_for(cg_table(lambda t: (r := t.row(burn)) and 70 <= r[2] <= 105), 20,
                          f"{burn} at about 100% CPU")
        assert t.row(cg.rel())[2] >= t.row(burn)[2] - 0.1, t.rows    # the parent sums it

        # F5: the tree, each child right after its parent, indented
        pane.keys("F5")
        t = pane.wait_for(cg_table(lambda t: status_line(pane.screen(), "cgroups as a tree")
                                   and t.row(burn) and t.row(cg.rel())), 5, "cgroup tree")
        top, child = t.row(cg.rel()), t.row(burn)
        assert child[0] == top[0] + 1 and child[1] == top[1] + 2, t.rows
        pane.keys("F5")
        pane.wait_for(lambda s: status_line(s, "cgroups sorted, with full paths"), 5, "flat")
        # flat and sorted by name: full paths in path order, none indented
        for _ in range(20):
            if status_line(pane.screen(), "sort name "):
                break
            pane.keys("<")
            time.sleep(0.2)
        t = pane.wait_for(cg_table(lambda t: status_line(pane.screen(), "sort name ")
                                   and t.row(burn)), 5, "sort by name")
        names = [n for n in t.names()]
        assert names == sorted(names) and all(n == n.lstrip() for n in names), t.rows
        assert t.row(burn)[0] == t.row(cg.rel())[0] + 1, t.rows

        # the name filter matches the path
        pane.keys("/")
        pane.wait_for(lambda s: status_line(s, "Show cgroups whose path contains"), 5,
                      "path prompt")
        pane.text(burn)
        pane.keys("Enter")
        t = pane.wait_for(cg_table(lambda t: len(t.rows) == 1), 5, "path filter")
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
                      len(x.rows) > 1, 5, "threads")
        pane.keys("/")
        pane.text(BURN_NAME)
        pane.keys("Enter")
        t = pane.wait_for(lambda s: status_line(s, f"threads  comm '{BURN_NAME}'")
                          and table_ready(s), 5, "threads filtered")
        assert wl.pid in t.pids() and "TID" in t.header.split(), t.rows
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


def test_tui_cgroup_key_needs_cgroup_mode():
    """Without --by cgroup or -c the kernel does not charge per cgroup: c
    says how to start tdtop and the process table stays."""
    require_root()
    with Pane() as pane:
        start(pane)
        pane.keys("c")
        pane.wait_for(lambda s: status_line(
            s, "start tdtop with --by cgroup or -c PATH for the cgroup view"), 5, "message")
        assert table_ready(pane.screen()), "\n".join(pane.screen())
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


def test_tui_empty_cgroup_view():
    """A cgroup none of whose tasks ran: no column titles, and a line that says so."""
    require_root()
    with TestCgroup() as cg, Pane() as pane:
        cmd = " ".join(shlex.quote(a) for a in
                       [TDTOP, "--by", "cgroup", "-c", cg.rel("burn"), "-d", "0.5"])
        pane.line(f"clear; {cmd}; echo TDTOP-EXIT=$?")
        pane.wait_for(lambda s: status_line(s, "no cgroups charged yet"), 15, "empty view")
        screen = pane.screen()
        assert Table(screen).header is None and CgTable(screen).header is None, \
            "\n".join(screen)
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


# ---- htop's keys ----

def keybar(screen):
    return any(line.startswith("F1Help") for line in screen)


def test_tui_function_keys():
    """F1 help, F3 search, F4 filter and Esc, F5 tree, F6 sort menu, I, P, M, u,
    F9 with its confirmation (n keeps the process, y sends SIGTERM), F10 quit."""
    require_root()
    with Workload("burn", 60000, name=BURN_NAME, now=True) as wl, Pane() as pane:
        wl.ready()
        start(pane)
        assert keybar(pane.screen()), "\n".join(pane.screen())
        pane.keys("F1")
        pane.wait_for(lambda s: status_line(s, "Press any key to return"), 5, "help")
        pane.keys("x")
        pane.wait_for(table_ready, 5, "table after help")

        # F6: the sort menu; Home is pid
        pane.keys("F6")
        pane.wait_for(lambda s: status_line(s, "Sort by") and status_line(s, "Enter"), 5,
                      "sort menu")
        pane.keys("Home", "Enter")
        t = pane.wait_for(lambda s: status_line(s, "sort pid ") and table_ready(s), 5,
                          "sort by pid")
        # I: the other way round
        pane.keys("I")
        pane.keys("Down")   # the message goes, the status line shows the order
        t = pane.wait_for(lambda s: status_line(s, "sort pid reversed") and
                          (x := table_ready(s)) and len(x.rows) > 1 and x, 5, "reversed")
        assert t.pids() == sorted(t.pids(), reverse=True), t.pids()
        pane.keys("P")
        pane.wait_for(lambda s: status_line(s, "sort cpu"), 5, "P sorts by CPU")
        pane.keys("M")
        pane.wait_for(lambda s: status_line(s, "no memory column"), 5, "M says why not")

        # F4 filters by name, Esc clears it
        pane.keys("F4")
        pane.wait_for(lambda s: status_line(s, "Show commands containing"), 5, "filter prompt")
        pane.text(BURN_NAME)
        pane.keys("Enter")
        t = pane.wait_for(lambda s: status_line(s, f"comm '{BURN_NAME}'") and table_ready(s),
                          5, "filtered")
        assert t.pids() == [wl.pid], t.rows
        pane.keys("Escape")
        pane.wait_for(lambda s: status_line(s, "filter cleared") and
                      (x := Table(s)).rows and len(x.rows) > 1, 5, "filter cleared")

        # F5: processes with their threads
        pane.keys("F5")
        t = pane.wait_for(lambda s: status_line(s, "processes with their threads") and
                          (x := table_ready(s)) and "TID" in x.header.split() and x, 5, "tree")
        pane.keys("F5")
        pane.wait_for(lambda s: (x := table_ready(s)) and "TID" not in x.header.split(), 5,
                      "flat again")

        # u: one user's processes
        pane.keys("u")
        pane.wait_for(lambda s: status_line(s, "Show the tasks of") and
                      status_line(s, "all users") and status_line(s, "root"), 5, "user menu")
        # the first user after "all users", whoever it is
        pane.keys("Down", "Enter")
        t = pane.wait_for(lambda s: status_line(s, "user ") and table_ready(s), 5, "user filter")
        user = t.header.split().index("USER")
        assert all(r.split()[user] == t.rows[0].split()[user] for r in t.rows), t.rows
        pane.keys("Escape")
        pane.wait_for(lambda s: status_line(s, "filter cleared"), 5, "user filter cleared")

        # F3 jumps to the burner; F9 names it before anything is sent
        pane.keys("F3")
        pane.wait_for(lambda s: status_line(s, "Search:"), 5, "search prompt")
        pane.text(BURN_NAME)
        pane.keys("Enter", "F9")
        pane.wait_for(lambda s: status_line(s, f"Send a signal to PID {wl.pid} ({BURN_NAME})"),
                      5, "signal menu for the burner")
        pane.keys("Enter")
        pane.wait_for(lambda s: status_line(
            s, f"Send SIGTERM to PID {wl.pid} '{BURN_NAME}'? y sends"), 5, "confirmation")
        pane.keys("n")
        pane.wait_for(lambda s: status_line(s, "SIGTERM not sent"), 5, "cancelled")
        assert wl.proc.poll() is None, "the burner got a signal"
        pane.keys("F9", "Enter")
        pane.wait_for(lambda s: status_line(s, "y sends"), 5, "confirmation")
        pane.keys("y")
        pane.wait_for(lambda s: status_line(s, f"SIGTERM sent to PID {wl.pid}"), 5, "sent")
        assert wl.proc.wait(5) == -signal.SIGTERM
        pane.keys("F10")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


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
    with Pane(200, 30) as wide_pane:
        wide = replay(wide_pane)
        wide_screen = wide_pane.screen()
    with Pane(60, 24) as pane:
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
        t = pane.wait_for(lambda s: status_line(s, "scrolled (Left)") and table_ready(s), 5,
                          "scrolled")
        assert "page-faults" in t.header.split() or "cpu-clock/s" in t.header.split(), t.header
        assert set(t.header.split()) <= set(wide.header.split()), t.header
        pane.keys("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")
    with Pane(38, 9) as tiny:
        replay(tiny)
        assert not keybar(tiny.screen()), "\n".join(tiny.screen())
        tiny.keys("q")
        tiny.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")


def test_tui_term_dumb_plain_text():
    """TERM=dumb: no cursor addressing, so each screen is printed as text
    lines after a note; keys come from the lines typed, q and Enter quits."""
    require_root()
    with Workload("burn", 60000, name=BURN_NAME, now=True) as wl, \
            Pane(100, 40, env={"TERM": "dumb"}) as pane:
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
        pane.wait_for(lambda s: status_line(s, f"comm '{BURN_NAME}'"), 5, "filter from a line")
        pane.line("q")
        pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")
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
        with Pane(config=config) as pane:
            start(pane, "-s", "pid")
            pane.keys("I", "F5")
            pane.wait_for(lambda s: status_line(s, "processes with their threads"), 5, "tree")
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")
        with open(rc_file(config)) as f:
            text = f.read()
        assert "reverse=1\n" in text and "tree=1\n" in text, text
        # -s and -d came from the command line and nobody changed them
        assert "sort=" not in text and "delay=" not in text, text
        with Pane(config=config) as pane:
            pane.line(f"clear; {shlex.quote(TDTOP)}; echo TDTOP-EXIT=$?")
            pane.wait_for(lambda s: status_line(s, "sort cpu reversed  process tree  delay 1s")
                          and table_ready(s), 15, "settings restored")
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")
        # the command line wins: -d, and -H has no tree
        with open(rc_file(config), "a") as f:
            f.write("delay=3\n")
        with Pane(config=config) as pane:
            start(pane, "-H")
            pane.wait_for(lambda s: status_line(s, "sort cpu reversed  threads") and
                          status_line(s, "delay 0.5s"), 5, "options override")
            pane.keys("q")
            pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0"), 5, "exit")
        # damaged: ignored whole, said once the screen is closed, not rewritten
        with open(rc_file(config), "w") as f:
            f.write("reverse=1\nlevel=9\n")
        with Pane(config=config) as pane:
            start(pane)
            assert status_line(pane.screen(), "sort cpu  processes"), "\n".join(pane.screen())
            pane.keys("I", "q")
            screen = pane.wait_for(lambda s: status_line(s, "TDTOP-EXIT=0") and s, 5, "exit")
            said = [line for line in screen if "settings ignored" in line]
            assert len(said) == 1 and "level wants 1 or 2" in "".join(screen), "\n".join(screen)
        with open(rc_file(config)) as f:
            assert f.read() == "reverse=1\nlevel=9\n"
    finally:
        shutil.rmtree(config, ignore_errors=True)
