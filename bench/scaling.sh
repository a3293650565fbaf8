#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Does tdtop's cost grow with what it watches? Not a test: prints tables.
#
#   sudo bench/scaling.sh [-r REPS] [-l LOOPS] [-c CPU] [-t TDTOP] [-H HELPERS]
#
# 1. Per-switch cost with 1, 1000 and 10000 threads alive (started once
#    tdtop is attached, so each has an entry in the task table, then
#    blocked), and with 1, 100 and 1000 cgroups holding a process each
#    (--by cgroup): the pinned `perf bench sched pipe` with tdtop running,
#    minus the same benchmark run just before tdtop started (medians).
# 2. tdtop's own CPU (median over 12 intervals) and RSS at a 1 s interval
#    with those tasks.
# 3. Time from start to the first complete interval (-d 0.5).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

REPS=5
LOOPS=100000
CPU=0
parse_opts "r:REPS l:LOOPS c:CPU t:TDTOP H:HELPERS" "$@"

need_root
need_cmds perf
need_tdtop "$TDTOP"
need_workload
CG=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)

pids=()
stop_cgroup_procs() {
	[ ${#pids[@]} -gt 0 ] || return 0
	kill "${pids[@]}" 2>/dev/null || true
	# only these: a bare wait would also wait for tdtop
	wait "${pids[@]}" 2>/dev/null || true
	pids=()
}

on_exit() {
	stop_cgroup_procs
	if [ -n "$CG" ] && [ -d "$CG/tdtop-scaling" ]; then
		for d in "$CG"/tdtop-scaling/*/; do
			[ -d "$d" ] || continue
			while read -r p; do echo "$p" >"$CG/cgroup.procs" 2>/dev/null || true; done \
				<"$d/cgroup.procs"
			rmdir "$d" 2>/dev/null || true
		done
		rmdir "$CG/tdtop-scaling" 2>/dev/null || true
	fi
}

# Starts one process in each of the first K cgroups: it runs once in its
# cgroup (an entry keyed by it) and then sleeps.
start_cgroup_procs() {
	local g
	for g in $(seq 0 $(($1 - 1))); do
		sh -c 'echo $$ > "$1/cgroup.procs"; exec sleep 600' _ "$CG/tdtop-scaling/g$g" 3>&- &
		pids+=($!)
	done
}

# Added ns/switch, tdtop's CPU % and RSS in KiB with tdtop running ARGS
# after SETUP (a command, run once tdtop is attached, that gives the
# tasks their entries).
measure() {
	local setup=$1 adds=() cpus=() rss=() n base loaded
	shift
	for _ in $(seq "$REPS"); do
		base=$(pipe_ns_per_switch)
		start_tdtop "$TDTOP" -e "$EVENTS" -d 1 "$@"
		wait_intervals 1 30
		$setup
		# the tasks' entries are in, and the BPF statistics sample is over
		n=$(intervals)
		wait_intervals $((n + 2))
		loaded=$(pipe_ns_per_switch)
		# userspace: the median over 12 quiet intervals (one of them
		# checks that the remembered tasks still exist)
		n=$(intervals)
		wait_intervals $((n + 13)) 0 0.2
		rss+=("$(awk '/^VmRSS/ { print $2 }' /proc/"$tdtop_pid"/status)")
		end_tdtop
		stop_threads
		stop_cgroup_procs
		cpus+=("$(grep -o '"self":{[^}]*}' "$tmp/out" | tail -n 12 |
			grep -o '"cpu_pct":[0-9.e-]*' | cut -d: -f2 | median)")
		adds+=("$(awk -v a="$loaded" -v b="$base" 'BEGIN { print a - b }')")
	done
	printf '%s %s %s\n' "$(printf '%s\n' "${adds[@]}" | median)" \
		"$(printf '%s\n' "${cpus[@]}" | median)" "$(printf '%s\n' "${rss[@]}" | median)"
}

echo "$(machine); events $EVENTS;" \
	"pipe benchmark pinned to CPU $CPU, $REPS repetitions, medians"
echo
echo "threads alive   +ns/switch   tdtop CPU %   tdtop RSS KiB"
for n in 1 1000 10000; do
	measure "start_threads $n 0" >"$tmp/m"
	read -r add cpu rss <"$tmp/m"
	printf '%13d %12.0f %13.2f %15s\n' "$n" "$add" "$cpu" "$rss"
done

echo
echo "cgroups         +ns/switch   tdtop CPU %   tdtop RSS KiB   (--by cgroup)"
mkdir -p "$CG/tdtop-scaling"
for k in 1 100 1000; do
	for g in $(seq 0 $((k - 1))); do mkdir -p "$CG/tdtop-scaling/g$g"; done
	measure "start_cgroup_procs $k" --by cgroup >"$tmp/m"
	read -r add cpu rss <"$tmp/m"
	printf '%13d %12.0f %13.2f %15s\n' "$k" "$add" "$cpu" "$rss"
done

echo
start=$(date +%s.%N)
"$TDTOP" -b -o json -e "$EVENTS" -d 0.5 -n 1 >/dev/null 2>&1
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "start to first complete interval (-d 0.5): %.3f s, so %.3f s plus the interval\n", e - s, e - s - 0.5 }'
