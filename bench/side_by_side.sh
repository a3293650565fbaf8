# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
#
# Sourced by the benchmarks that compare tdtop builds and thread counts side
# by side (prog_cost.sh, self_cost.sh). The caller sets NAME, REPS, THREADS
# and HELPERS, defines one_run TDTOP NTHREADS (one result line on stdout;
# tdtop_pid and wl_pid set while those run) and may define on_exit, run
# before the processes are stopped.

usage() {
	sed -n 's/^#   //p' "$0"
	exit 2
}

# Root, each tdtop binary, and the workload helper when threads are wanted.
check_setup() {
	local t
	[ "$(id -u)" -eq 0 ] || { echo "$NAME: needs root (tdtop loads BPF)" >&2; exit 1; }
	for t in "$@"; do
		[ -x "$t" ] || { echo "$NAME: no tdtop at $t" >&2; exit 1; }
	done
	[ "$THREADS" = 0 ] || [ -x "$HELPERS/workload" ] ||
		{ echo "$NAME: no $HELPERS/workload (run make helpers)" >&2; exit 1; }
}

tmp=$(mktemp -d)
tdtop_pid=
wl_pid=

stop_tdtop() {
	[ -n "$tdtop_pid" ] || return 0
	kill -INT "$tdtop_pid" 2>/dev/null || true
	wait "$tdtop_pid" 2>/dev/null || true
	tdtop_pid=
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
	stop_tdtop
	rm -rf "$tmp"
}
trap cleanup EXIT
mkfifo "$tmp/wl_in"
exec 3<>"$tmp/wl_in"

# Waits until FILE holds PATTERN, SECS at most; 1 if it never does.
wait_for() {
	for _ in $(seq $(($3 * 20))); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# Starts N threads that run for MS ms, napping (each gets an entry in the
# task table), then block; returns once they are all up.
start_threads() {
	# its stdin stays open (it exits at EOF), held by fd 3
	"$HELPERS/workload" --now threads "$1" "$2" <&3 >"$tmp/wl" &
	wl_pid=$!
	wait_for "$tmp/wl" '"phase":"done"' 120 ||
		{ echo "$NAME: $1 threads did not start" >&2; exit 1; }
}

# Every binary given with every thread count, REPS times in turn: one line
# each, also kept in $tmp/runs. Not in a pipeline: cleanup must see the
# pids one_run keeps.
run_side_by_side() {
	local t n
	for _ in $(seq "$REPS"); do
		for t in "$@"; do
			for n in $THREADS; do
				one_run "$t" "$n" >>"$tmp/runs"
				tail -n 1 "$tmp/runs"
			done
		done
	done
}
