# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The interactive view as a user meets it: tdtop in a tmux pane of fixed
size, driven by keys and read back with capture-pane. Checks the header and
rows, sorting, the PID and name filters, help, resize, colours, and that
every way out (q, SIGTERM) gives back a sane terminal at once."""
import os
import re
import shlex
import shutil
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

    def __init__(self, width=120, height=40, env=None):
        require_root()
        if not TMUX:
            raise SkipTest("needs tmux")
        self.socket = f"tdtop-test-{os.getpid()}-{time.monotonic_ns()}"
        self.name = "tui"
        shell_env = ["env", f"PS1={PROMPT}"] + [f"{k}={v}" for k, v in (env or {}).items()]
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
