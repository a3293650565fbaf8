#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What `make install` delivers, checked against tdtop itself: the man page
renders without a warning and documents every option each command's --help
lists and every field name of src/rows/metrics.c; the bash and zsh
completions offer exactly those options, the sort keys, the events
`tdtop --list-events -o json` names and the cgroup paths under the cgroup2
mount; install and uninstall put every file where they say and take it
away again. Needs no root. One line per check, then "N passed, N failed".

    TDTOP=./tdtop tests/install/check.py"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TDTOP = os.path.abspath(os.environ.get("TDTOP", os.path.join(ROOT, "tdtop")))
MAN = os.path.join(ROOT, ".output", "tdtop.8")
BASH_COMP = os.path.join(ROOT, "completions", "tdtop.bash")
ZSH_COMP = os.path.join(ROOT, "completions", "_tdtop")
# a machine with a core PMU, so that hardware events are listed
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "sysfs", "skylake")
COMMANDS = ("", "record", "report", "exporter")
# a value each option taking one accepts, to ask the parser about it
VALUES = {"-l": "1", "--level": "1", "-e": "cpu-clock", "--events": "cpu-clock",
          "-p": "1", "--pid": "1", "--by": "process", "-c": "system.slice",
          "--cgroup": "system.slice", "--cgroup-depth": "1", "-d": "1", "--delay": "1",
          "-n": "1", "--iterations": "1", "--max-tasks": "1024", "-s": "cpu", "--sort": "cpu",
          "--top": "1", "--duration": "1", "--listen": "127.0.0.1:9717",
          "--web-config": "/dev/null"}
OPTION = re.compile(r"(?<![\w-])(--?[a-zA-Z][a-zA-Z0-9-]*)")


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)


def help_text(cmd):
    res = run([TDTOP, *([cmd] if cmd else []), "--help"])
    check(res.returncode == 0, f"tdtop {cmd} --help: exit {res.returncode}")
    return res.stdout


def help_options(cmd):
    """The options --help lists: its option table, and those its usage
    lines give the command itself (report --diff)."""
    opts = set()
    for line in help_text(cmd).splitlines():
        m = re.match(r"\s+(-\w)?(?:, )?(--[\w-]+)?", line)
        if m and (m.group(1) or m.group(2)) and line.lstrip().startswith("-"):
            opts.update(o for o in m.groups() if o)
        m = re.match(r"(?:Usage:)?\s+tdtop(?: (record|report|exporter))?((?: \[?--?[\w-]+)*)", line)
        if m and (m.group(1) or "") == cmd:
            opts.update(OPTION.findall(m.group(2)))
    check(opts, f"no options found in tdtop {cmd} --help")
    return opts


def all_help_options():
    return set().union(*(help_options(c) for c in COMMANDS))


def td_fields():
    """(key, alias, text header) of every TopDown field, from td_fields[]."""
    with open(os.path.join(ROOT, "src", "rows", "metrics.c"), encoding="utf-8") as f:
        fields = re.findall(r'^\s*F\("([^"]+)", "([^"]+)", "([^"]+)"', f.read(), re.M)
    check(len(fields) >= 12, f"td_fields[] not found in metrics.c: {fields}")
    return fields


def sort_keys():
    keys = {"cpu", "cpu_pct", "pid", "comm", "slots", "ipc"}
    for key, alias, _ in td_fields():
        keys.update((key, alias))
    return keys


def rendered_man():
    res = run(["groff", "-t", "-man", "-Tutf8", "-ww", "-P-cbou", MAN])
    check(res.returncode == 0 and not res.stderr.strip(),
          f"groff: exit {res.returncode}, warnings:\n{res.stderr}")
    return res.stdout


def check_man_renders():
    check(os.path.exists(MAN), f"{MAN} missing: run make")
    check(len(rendered_man().splitlines()) > 200, "man page too short")
    if shutil.which("man"):
        res = run(["man", "-l", MAN], env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING=""))
        check(res.returncode == 0 and "EXIT STATUS" in res.stdout and not res.stderr.strip(),
              f"man -l: exit {res.returncode}: {res.stderr}")


def check_man_documents_options():
    text = rendered_man()
    documented = set(OPTION.findall(text))
    missing = {c or "tdtop": sorted(help_options(c) - documented) for c in COMMANDS}
    missing = {c: m for c, m in missing.items() if m}
    check(not missing, f"options --help lists but tdtop(8) does not: {missing}")
    # and nothing the man page names that no --help has (a typo, a removed option)
    extra = {o for o in documented if o.startswith("--")} - all_help_options()
    check(not extra, f"tdtop(8) names options no --help lists: {sorted(extra)}")


def check_man_sections():
    text = rendered_man()
    for sec in ("NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "SORT KEYS", "FIELD NAMES",
                "EVENTS", "OUTPUT", "INTERACTIVE VIEW", "EXIT STATUS", "ENVIRONMENT",
                "EXAMPLES", "SEE ALSO"):
        check(re.search(rf"^{sec}$", text, re.M), f"tdtop(8) has no {sec} section")
    for code in ("0", "1", "2"):
        check(re.search(rf"^\s+{code}\s+\S", text, re.M), f"exit status {code} not described")


def check_man_field_names():
    """One row per TopDown field: its name, alias and text header."""
    rows = [l.split() for l in rendered_man().splitlines()]
    for key, alias, label in td_fields():
        check([key, alias, label] in [r[:3] for r in rows],
              f"tdtop(8) FIELD NAMES has no row '{key} {alias} {label}'")


def check_help_options_accepted():
    """Every option a --help lists is one its command takes."""
    for cmd in COMMANDS:
        for opt in sorted(help_options(cmd)):
            args = [TDTOP, *([cmd] if cmd else []), opt]
            if opt in VALUES or (opt in ("-o", "--output")):
                args.append(VALUES.get(opt, "out.jsonl" if cmd == "record" else "json"))
            res = run([*args, "--help"])
            check(res.returncode == 0,
                  f"tdtop {cmd} --help lists {opt}, which it refuses: {res.stderr.strip()}")


def listed_events():
    """Every name -e takes on the fixture machine, from the JSON list."""
    res = run([TDTOP, "--list-events", "-o", "json"], env=dict(os.environ, TDTOP_SYSFS=FIXTURE))
    check(res.returncode == 0, f"--list-events -o json: {res.stderr}")
    d = json.loads(res.stdout)
    names = set()
    for e in d["software"] + d["hardware"]:
        names.add(e["name"])
        if e["alias"]:
            names.add(e["alias"])
    for p in d["pmus"]:
        names.update(e["event"] for e in p["events"])
    # libpfm4's names for this CPU; qualified by PMU when there are several
    vendor = d["vendor"] or []
    for v in vendor:
        qual = v["libpfm4_pmu"] + "::" if len(vendor) > 1 else ""
        names.update(qual + e for e in v["events"])
    check(len(names) > 20, f"too few events listed: {sorted(names)}")
    return names


def cgroup2_mount():
    with open("/proc/self/mounts", encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if parts[2] == "cgroup2":
                return parts[1]
    return ""


def fake_cgroups(tmp):
    root = os.path.join(tmp, "cg")
    for d in ("system.slice/nginx.service", "system.slice/ssh.service", "user.slice"):
        os.makedirs(os.path.join(root, d))
    return root


# ---- bash ----

def bash(words, setup=""):
    """COMPREPLY for COMP_WORDS=words (the last one being completed)."""
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    script = (f"source '{BASH_COMP}'\n{setup}\nCOMP_WORDS=({quoted})\n"
              f"COMP_CWORD={len(words) - 1}\n_tdtop\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    res = run(["bash", "--norc", "--noprofile", "-c", script],
              env=dict(os.environ, TDTOP_SYSFS=FIXTURE), cwd=ROOT)
    check(res.returncode == 0 and not res.stderr, f"bash {words}: {res.stderr}")
    return [l for l in res.stdout.splitlines() if l]


def check_bash_options():
    for cmd in COMMANDS:
        words = [TDTOP, *([cmd] if cmd else []), "-"]
        got = set(bash(words))
        want = help_options(cmd)
        check(got == want, f"bash: tdtop {cmd} -<TAB>: missing {sorted(want - got)}, "
                           f"extra {sorted(got - want)}")
    check(bash([TDTOP, ""]) == ["record", "report", "exporter"], "bash: commands")
    check(bash([TDTOP, "rep"]) == ["report"], "bash: a command by its prefix")


def check_bash_values():
    check(set(bash([TDTOP, "-s", ""])) == sort_keys(), "bash: sort keys")
    check(bash([TDTOP, "-s", "bad_"]) == ["bad_speculation"], "bash: -s bad_")
    got = bash([TDTOP, "-e", "cpu-clock,cs", "-s", "c"])
    check({"cpu-clock", "cs", "cpu", "cpu_pct"} <= set(got), f"bash: -s with -e events: {got}")
    check(bash([TDTOP, "-l", ""]) == ["1", "2"], "bash: levels")
    check(bash([TDTOP, "-o", ""]) == ["text", "json", "csv"], "bash: formats")
    check(bash([TDTOP, "--by", ""]) == ["process", "thread", "cgroup"], "bash: --by")
    check(bash([TDTOP, "exporter", "--by", ""]) == ["cgroup", "process"], "bash: exporter --by")
    check(bash([TDTOP, "-d", ""]) == [], "bash: no values for -d")
    got = bash([TDTOP, "report", "tests/fixtures/recordings/basic"])
    check("tests/fixtures/recordings/basic.jsonl.gz" in got, f"bash: report FILE: {got}")
    got = bash([TDTOP, "record", "-o", "tests/fixtures/recordings/cg"])
    check("tests/fixtures/recordings/cgroups.jsonl" in got and
          all(f.startswith("tests/fixtures/recordings/cg") for f in got), f"bash: record -o FILE: {got}")


def check_bash_events():
    names = listed_events()
    got = set(bash([TDTOP, "-e", ""]))
    check(got == names, f"bash: -e: missing {sorted(names - got)[:10]}, "
                        f"extra {sorted(got - names)[:10]}")
    got = bash([TDTOP, "-e", "cpu-clock,cpu/topdown-t"])
    check(got == ["cpu-clock,cpu/topdown-total-slots/"], f"bash: -e LIST,prefix: {got}")


def check_bash_cgroups():
    script = f"source '{BASH_COMP}'; _tdtop_cgroup_root"
    got = run(["bash", "--norc", "-c", script]).stdout.strip()
    check(got == cgroup2_mount(), f"bash: cgroup2 mount {got!r}, want {cgroup2_mount()!r}")
    with tempfile.TemporaryDirectory() as tmp:
        root = fake_cgroups(tmp)
        setup = f"_tdtop_cgroup_root() {{ echo '{root}'; }}"
        got = bash([TDTOP, "-c", ""], setup)
        check(sorted(got) == ["system.slice", "user.slice"], f"bash: -c: {got}")
        got = bash([TDTOP, "exporter", "-c", "system.slice/n"], setup)
        check(got == ["system.slice/nginx.service"], f"bash: -c PATH: {got}")


def check_bash_pids():
    got = bash([TDTOP, "-p", "1"])
    check("1" in got and all(p.isdigit() for p in got), f"bash: -p: {got[:10]}")
    got = bash([TDTOP, "-p", f"1,{os.getpid()}"])
    check(f"1,{os.getpid()}" in got, f"bash: -p LIST: {got[:10]}")


# ---- zsh ----

# _arguments and the completion builtins only exist while completing: these
# stand-ins print what the completion hands them.
ZSH_STUBS = r"""
_arguments() { shift 2; print -rl -- "$@" }
compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -rl -- "$@" }
compset() { : }
_path_files() { print -r -- "_path_files $*" }
"""


def zsh(words, body="", setup=""):
    """Source _tdtop as completing *words* (the last one being completed);
    then run *body*."""
    arr = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    script = (f"{ZSH_STUBS}\n{setup}\nwords=({arr}); CURRENT={len(words)}\n"
              f"source '{ZSH_COMP}'\n{body}\n")
    res = run(["zsh", "-f", "-c", script], env=dict(os.environ, TDTOP_SYSFS=FIXTURE), cwd=ROOT)
    check(res.returncode == 0 and not res.stderr, f"zsh {words}: {res.stderr}")
    return [l for l in res.stdout.splitlines() if l]


def zsh_spec_options(specs):
    opts = set()
    for s in specs:
        m = re.match(r"(?:\([^)]*\))?(--?[\w-]+)", s)
        if m:
            opts.add(m.group(1))
    return opts


def check_zsh_syntax():
    res = run(["zsh", "-n", ZSH_COMP])
    check(res.returncode == 0, f"zsh -n: {res.stderr}")


def check_zsh_options():
    for cmd in COMMANDS:
        specs = zsh([TDTOP, *([cmd] if cmd else []), "-"])
        got, want = zsh_spec_options(specs), help_options(cmd)
        check(got == want, f"zsh: tdtop {cmd}: missing {sorted(want - got)}, "
                           f"extra {sorted(got - want)}")
    check("1:command:(record report exporter)" in zsh([TDTOP, ""]), "zsh: commands")


def check_zsh_values():
    # the first call completes (and prints the specs); the helpers follow
    n = len(zsh([TDTOP, "-s", ""]))
    got = zsh([TDTOP, "-e", "cpu-clock,cs", "-s", ""], "_tdtop_sort_keys")[n:]
    check(set(got) == sort_keys() | {"cpu-clock", "cs"}, f"zsh: sort keys: {got}")
    n = len(zsh([TDTOP, "-e", ""]))
    got = set(zsh([TDTOP, "-e", ""], "_tdtop_events")[n:])
    names = listed_events()
    check(got == names, f"zsh: -e: missing {sorted(names - got)[:10]}, "
                        f"extra {sorted(got - names)[:10]}")
    with tempfile.TemporaryDirectory() as tmp:
        root = fake_cgroups(tmp)
        setup = f"_tdtop_cgroup_root() {{ print -r -- '{root}' }}"
        got = zsh([TDTOP, "-c", ""], "_tdtop_cgroup_root() { print -r -- '%s' }\n"
                  "PREFIX=sys; _tdtop_cgroups" % root, setup)
        check(f"_path_files -W {root} -/" in got, f"zsh: -c: {got[-3:]}")
    got = zsh([TDTOP, "-c", ""], "_tdtop_cgroup_root")
    check(got[-1] == cgroup2_mount(), f"zsh: cgroup2 mount {got[-1]!r}")


# ---- make install ----

def installed_files(prefix):
    return {
        f"{prefix}/bin/tdtop": 0o755,
        f"{prefix}/share/man/man8/tdtop.8": 0o644,
        f"{prefix}/share/bash-completion/completions/tdtop": 0o644,
        f"{prefix}/share/zsh/site-functions/_tdtop": 0o644,
        f"{prefix}/share/doc/tdtop/README.md": 0o644,
        f"{prefix}/share/doc/tdtop/LICENSE": 0o644,
        f"{prefix}/share/doc/tdtop/docs/exporter.md": 0o644,
        f"{prefix}/share/doc/tdtop/docs/architecture.md": 0o644,
        f"{prefix}/share/doc/tdtop/deploy/tdtop-exporter.service": 0o644,
        f"{prefix}/share/doc/tdtop/deploy/kubernetes/tdtop-exporter.yaml": 0o644,
    }


def make(*args):
    res = run(["make", "-s", "--no-print-directory", "-C", ROOT, *args])
    check(res.returncode == 0, f"make {' '.join(args)}: {res.stdout}{res.stderr}")


def check_install_uninstall():
    with tempfile.TemporaryDirectory() as dest:
        for prefix in ("/usr/local", "/usr"):
            args = [f"DESTDIR={dest}"] + ([f"PREFIX={prefix}"] if prefix != "/usr/local" else [])
            make("install", *args)
            for path, mode in installed_files(prefix).items():
                full = dest + path
                check(os.path.isfile(full), f"make install: {path} missing")
                check(os.stat(full).st_mode & 0o777 == mode,
                      f"{path}: mode {oct(os.stat(full).st_mode & 0o777)}, want {oct(mode)}")
            res = run([dest + prefix + "/bin/tdtop", "--version"])
            check(res.returncode == 0 and "tdtop" in res.stdout, "installed tdtop --version")
            with open(dest + prefix + "/share/man/man8/tdtop.8", encoding="utf-8") as f:
                check("@VERSION@" not in f.read(), "installed man page has no version")
            # the README's links resolve in the installed docs
            with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
                for link in re.findall(r"\]\(((?:docs|deploy)/[^)#]+)\)", f.read()):
                    check(os.path.exists(f"{dest}{prefix}/share/doc/tdtop/{link}"),
                          f"README links {link}, not installed")
            make("uninstall", *args)
            left = [os.path.join(d, f) for d, _, fs in os.walk(dest) for f in fs]
            check(not left, f"make uninstall left {left}")


CHECKS = [
    ("man renders", check_man_renders),
    ("man documents every option", check_man_documents_options),
    ("man sections and exit codes", check_man_sections),
    ("man field names", check_man_field_names),
    ("help options accepted", check_help_options_accepted),
    ("bash options and commands", check_bash_options),
    ("bash values", check_bash_values),
    ("bash events", check_bash_events),
    ("bash cgroups", check_bash_cgroups),
    ("bash pids", check_bash_pids),
    ("zsh syntax", check_zsh_syntax),
    ("zsh options and commands", check_zsh_options),
    ("zsh values", check_zsh_values),
    ("install and uninstall", check_install_uninstall),
]


def main():
    passed = failed = skipped = 0
    for name, fn in CHECKS:
        if name.startswith("zsh") and not shutil.which("zsh"):
            print(f"skip install/{name} (no zsh)")
            skipped += 1
            continue
        try:
            fn()
        except (Fail, subprocess.SubprocessError, OSError, ValueError, KeyError) as e:
            failed += 1
            print(f"FAIL install/{name}\n    {e}")
        else:
            passed += 1
            print(f"ok   install/{name}")
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
