#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# How long tdtop's switch program runs per context switch, in place: the
# kernel's BPF run-time statistics of the attached program over a pinned
# `perf bench sched pipe` run. Not a test: prints one line per tdtop binary,
# thread count and repetition, alternating, then the medians.
#
#   sudo bench/prog_cost.sh [-e EVENTS] [-l LOOPS] [-r REPS] [-c CPU] [-T "N..."] [TDTOP...]
#
# -T: thread counts to compare ("0" by default): that many threads are
# started once tdtop is attached, run briefly so that each has an entry in
# the task table, and stay blocked during the benchmark.
# The statistics add two clock reads to every run (about 70 ns here), the
# same for every binary; compare binaries side by side in one run.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

LOOPS=50000
REPS=5
CPU=0
THREADS=0
side_by_side_args "e:EVENTS l:LOOPS r:REPS c:CPU T:THREADS" "$@"
need_cmds perf bpftool python3

stats_was=$(sysctl -n kernel.bpf_stats_enabled)
on_exit() { sysctl -q kernel.bpf_stats_enabled="$stats_was" || true; }

# "run_time_ns run_cnt" of the sched_switch program tdtop_pid holds (its
# fds' fdinfo names the program ids)
switch_prog_stats() {
	local ids
	ids=$(cat /proc/"$tdtop_pid"/fdinfo/* 2>/dev/null | awk '/^prog_id:/ { print $2 }')
	bpftool -j prog show | python3 -c '
import json, sys
ids = {int(i) for i in sys.argv[1:]}
progs = [p for p in json.load(sys.stdin)
         if p["id"] in ids and p.get("name") in ("on_switch", "on_switch_mem")]
if len(progs) != 1:
    sys.exit("prog_cost.sh: expected one switch program of tdtop, found %d" % len(progs))
print(progs[0].get("run_time_ns", 0), progs[0].get("run_cnt", 0))' $ids
}

one_run() {
	local t=$1 n=$2 a_ns a_cnt b_ns b_cnt

	start_tdtop "$t" -e "$EVENTS" -d 5
	wait_intervals 1 15
	[ "$n" -eq 0 ] || start_threads "$n" 10
	sysctl -q kernel.bpf_stats_enabled=1
	read -r a_ns a_cnt < <(switch_prog_stats)
	# shellcheck disable=SC2119
	pipe_us >/dev/null
	read -r b_ns b_cnt < <(switch_prog_stats)
	sysctl -q kernel.bpf_stats_enabled=0
	end_tdtop
	stop_threads
	[ "$b_cnt" -gt "$a_cnt" ] || die "the switch program did not run during the benchmark"
	echo "$t,threads=$n $(( (b_ns - a_ns) / (b_cnt - a_cnt) ))"
}

run_side_by_side
echo "events $EVENTS, perf bench sched pipe -l $LOOPS on CPU $CPU, $REPS repetitions"
summarize_runs median "%s: median %g ns per run"
