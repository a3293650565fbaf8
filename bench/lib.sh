# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
#
# Sourced by every benchmark script in bench/, after set -euo pipefail:
# option parsing, the checks before a run, one temporary directory, the
# pinned pipe benchmark, tdtop and the workload's idle threads started and
# always stopped, medians. A script may define on_exit, run at exit before
# the processes are stopped. The side-by-side benchmarks (prog_cost.sh,
# self_cost.sh) take their options and binaries with side_by_side_args,
# define one_run TDTOP NTHREADS (one result line on stdout), then call
# run_side_by_side and summarize_runs.

NAME=${0##*/}
# shellcheck disable=SC2034  # the scripts' default
TDTOP=$(dirname "$0")/../tdtop
HELPERS=$(dirname "$0")/../.output/std/helpers
# shellcheck disable=SC2034  # the default of those that take -e
EVENTS=cpu-clock,page-faults,context-switches

die() {
	echo "$NAME: $*" >&2
	exit 1
}

usage() {
	sed -n 's/^#   //p' "$0"
	exit 2
}

# Parses the options in "$@" by SPEC, words LETTER:VARIABLE ("l:LOOPS
# r:REPS"): -l N sets LOOPS=N; -h or an unknown option prints the usage.
# OPTIND stays global: the caller shifts $((OPTIND - 1)) for operands.
parse_opts() {
	local spec=$1 letters='' opt pair
	shift
	for pair in $spec; do
		letters+=${pair%%:*}:
	done
	while getopts "${letters}h" opt; do
		for pair in $spec; do
			if [ "$opt" = "${pair%%:*}" ]; then
				printf -v "${pair#*:}" %s "$OPTARG"
				continue 2
			fi
		done
		usage
	done
}

need_root() {
	[ "$(id -u)" -eq 0 ] || die "needs root (tdtop loads BPF)"
}

need_cmds() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || die "$c not found"
	done
}

need_tdtop() {
	local t
	for t in "$@"; do
		[ -x "$t" ] || die "no tdtop at $t (run make)"
	done
}

need_workload() {
	[ -x "$HELPERS/workload" ] || die "no $HELPERS/workload (run make helpers)"
}

tmp=$(mktemp -d)
tdtop_pid=
tdtop_bin=
wl_pid=

# Stops tdtop as a user would (SIGINT); 1 if it did not end cleanly.
stop_tdtop() {
	local pid=$tdtop_pid

	[ -n "$pid" ] || return 0
	tdtop_pid=
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null
}

# A tdtop that fails voids what was measured while it ran.
end_tdtop() {
	stop_tdtop || die "$tdtop_bin failed: $(cat "$tmp/err")"
}

stop_threads() {
	[ -n "$wl_pid" ] || return 0
	kill "$wl_pid" 2>/dev/null || true
	wait "$wl_pid" 2>/dev/null || true
	wl_pid=
}

cleanup() {
	! declare -F on_exit >/dev/null || on_exit
	stop_threads
	stop_tdtop || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# The workload exits when its stdin reaches EOF: fd 3 holds it open until
# this shell ends, however it ends. Opened here, so subshells have it too.
mkfifo "$tmp/wl_in"
exec 3<>"$tmp/wl_in"

# `kernel ..., date, N CPUs`, the first words of every report.
machine() {
	echo "kernel $(uname -r), $(date -u +%Y-%m-%d), $(nproc) CPUs"
}

# µs per op of one `perf bench sched pipe -l LOOPS` pinned to CPU (unpinned
# it measures cross-CPU wake-ups, not switches); arguments prefix the
# command. Each op is two context switches.
# shellcheck disable=SC2120  # overhead.sh passes perf stat
pipe_us() {
	"$@" taskset -c "$CPU" perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1; found = 1 } END { exit !found }'
}

pipe_ns_per_switch() {
	# shellcheck disable=SC2119
	pipe_us | awk '{ print $1 * 1000 / 2 }'
}

# median(a, n) of a[1..n] (sorted in place), to put before an awk program.
# shellcheck disable=SC2016
AWK_MEDIAN='
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

# The median of the numbers on stdin, one a line.
median() {
	awk "$AWK_MEDIAN"'{ a[NR] = $1 } END { print median(a, NR) }'
}

# Starts TDTOP -b -o json ARGS..., its output in $tmp/out and $tmp/err.
start_tdtop() {
	tdtop_bin=$1
	shift
	# emptied first: a wait must not count the previous run's intervals
	: >"$tmp/out"
	"$tdtop_bin" -b -o json "$@" >"$tmp/out" 2>"$tmp/err" 3>&- &
	tdtop_pid=$!
}

intervals() {
	grep -c '"type":"interval"' "$tmp/out" || true
}

# Waits until tdtop has printed N intervals, checking every POLL s (0.05):
# more often would add load to what the waits measure. Fatal when tdtop
# ends first or, with SECS (not 0), after SECS s.
wait_intervals() {
	local n=$1 secs=${2:-0} poll=${3:-0.05} end=$((SECONDS + ${2:-0}))

	while [ "$(intervals)" -lt "$n" ]; do
		kill -0 "$tdtop_pid" 2>/dev/null ||
			die "$tdtop_bin ended before interval $n: $(cat "$tmp/err")"
		[ "$secs" = 0 ] || [ "$SECONDS" -lt "$end" ] ||
			die "$tdtop_bin printed no $n intervals in $secs s: $(cat "$tmp/err")"
		sleep "$poll"
	done
}

# Starts N threads that run for MS ms, napping (each gets an entry in the
# task table), then block; returns once they are all up.
start_threads() {
	"$HELPERS/workload" --now --timeout 600 threads "$1" "$2" <&3 >"$tmp/wl" &
	wl_pid=$!
	for _ in $(seq 2400); do
		grep -q '"phase":"done"' "$tmp/wl" 2>/dev/null && return 0
		sleep 0.05
	done
	die "$1 threads did not start"
}

# The options by SPEC (see parse_opts), then the tdtop binaries to compare
# ($TDTOP by default) into TDTOPS; checks root, each binary and the
# workload helper when threads are wanted.
side_by_side_args() {
	parse_opts "$@"
	shift "$OPTIND"
	TDTOPS=("$@")
	[ ${#TDTOPS[@]} -gt 0 ] || TDTOPS=("$TDTOP")
	need_root
	need_tdtop "${TDTOPS[@]}"
	[ "$THREADS" = 0 ] || need_workload
}

# Every binary with every thread count, REPS times in turn: one line
# each, also kept in $tmp/runs. Not in a pipeline: cleanup must see the
# pids one_run keeps.
run_side_by_side() {
	local t n
	for _ in $(seq "$REPS"); do
		for t in "${TDTOPS[@]}"; do
			for n in $THREADS; do
				one_run "$t" "$n" >>"$tmp/runs"
				tail -n 1 "$tmp/runs"
			done
		done
	done
}

# One line per binary and thread count over the lines of run_side_by_side
# ("WHAT V1 V2 ..."): column k of its runs reduced by word k of HOW (median
# or max), printed by FORMAT, a Python % format with WHAT first.
summarize_runs() {
	python3 - "$tmp/runs" "$1" "$2" <<'EOF_PY'
import statistics, sys
how, fmt = sys.argv[2].split(), sys.argv[3]
reduce = {"median": statistics.median, "max": max}
runs = {}
for line in open(sys.argv[1]):
    what, *vals = line.split()
    runs.setdefault(what, []).append([float(v) for v in vals])
for what, rows in runs.items():
    print(fmt % ((what,) + tuple(reduce[h](r[k] for r in rows) for k, h in enumerate(how))))
EOF_PY
}
