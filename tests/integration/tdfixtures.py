# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What the integration tests set up around tdtop and take down again:
cgroups made under the cgroup v2 mount, and a terminal (a tmux pane of
fixed size on a private server) to drive the interactive view."""
import os
import shutil
import subprocess
import tempfile
import time

from tdtest import SkipTest, require_root

TMUX = shutil.which("tmux")
PROMPT = "tdtest$ "
PROMPT_SHOWN = PROMPT.rstrip()   # capture-pane drops trailing blanks


def cgroup2_mount():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if right.split()[:1] == ["cgroup2"]:
                return left.split()[4]
    raise SkipTest("no cgroup v2 mount")


class Cgroups:
    """Cgroups created under a fresh top cgroup and removed on exit; their
    processes are moved back to the root first."""

    def __init__(self, *rel):
        require_root()
        self.mount = cgroup2_mount()
        self.top = f"tdtest-{os.getpid()}-{time.monotonic_ns()}"
        os.mkdir(self.path(""))
        for r in rel:
            os.makedirs(self.path(r), exist_ok=True)

    def path(self, rel):
        return os.path.join(self.mount, self.top, rel) if rel else \
            os.path.join(self.mount, self.top)

    def rel(self, rel=""):
        """The path tdtop shows: below the cgroup root."""
        return "/" + self.top + ("/" + rel if rel else "")

    def move(self, pid, rel=""):
        with open(os.path.join(self.path(rel), "cgroup.procs"), "w") as f:
            f.write(str(pid))

    def remove(self, rel):
        self._evacuate(self.path(rel))
        os.rmdir(self.path(rel))

    def _evacuate(self, path):
        try:
            with open(os.path.join(path, "cgroup.procs")) as f:
                pids = f.read().split()
        except OSError:
            return
        for pid in pids:
            try:
                with open(os.path.join(self.mount, "cgroup.procs"), "w") as f:
                    f.write(pid)
            except OSError:
                pass    # exited meanwhile

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for root, _, _ in sorted(os.walk(self.path("")), key=lambda t: -len(t[0])):
            deadline = time.monotonic() + 5
            while True:
                self._evacuate(root)
                try:
                    os.rmdir(root)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.1)     # a task still leaving


class Pane:
    """A shell (or *command*) in a detached tmux session on a private server."""

    def __init__(self, width=120, height=40, env=None, command=None):
        require_root()
        if not TMUX:
            raise SkipTest("needs tmux")
        self.socket = f"tdtest-{os.getpid()}-{time.monotonic_ns()}"
        self.name = "t"
        if command is None:
            command = ["env", f"PS1={PROMPT}", *[f"{k}={v}" for k, v in (env or {}).items()],
                       "bash", "--norc", "--noprofile"]
        self._tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height),
                   *([command] if isinstance(command, str) else command))
        if isinstance(command, list):
            try:
                self.wait_for(lambda s: any(line.startswith(PROMPT_SHOWN) for line in s), 10,
                              "shell prompt")
            except BaseException:
                self.kill()
                raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()

    def kill(self):
        """Ends the session: the terminal goes away."""
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
        """Waits until pred(screen lines) is true; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            s = self.screen()
            got = pred(s)
            if got:
                return got
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {timeout}s; screen:\n" + "\n".join(s))
            time.sleep(0.05)


def assert_sane_terminal(pane):
    """The shell is back and the tty is in its normal (cooked, echoing) mode."""
    with tempfile.NamedTemporaryFile("r", suffix=".stty") as f:
        pane.line(f"stty -a > {f.name}; echo STTY-DONE")
        pane.wait_for(lambda s: any(line.startswith("STTY-DONE") for line in s), 10, "stty")
        flags = f.read().replace(";", " ").split()
    for flag in ("icanon", "echo", "isig", "icrnl", "opost"):
        assert flag in flags and f"-{flag}" not in flags, f"{flag} not restored: {flags}"
