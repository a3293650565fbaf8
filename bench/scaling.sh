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

REPS=5
LOOPS=100000
CPU=0
TDTOP=$(dirname "$0")/../tdtop
HELPERS=$(dirname "$0")/../.output/std/helpers
EVENTS=cpu-clock,page-faults,context-switches

while getopts "r:l:c:t:H:h" opt; do
	case $opt in
	r) REPS=$OPTARG ;;
	l) LOOPS=$OPTARG ;;
	c) CPU=$OPTARG ;;
	t) TDTOP=$OPTARG ;;
	H) HELPERS=$OPTARG ;;
	*) sed -n 's/^#   //p' "$0"; exit 2 ;;
	esac
done

[ "$(id -u)" -eq 0 ] || { echo "scaling.sh: needs root" >&2; exit 1; }
[ -x "$TDTOP" ] || { echo "scaling.sh: no tdtop at $TDTOP (run make)" >&2; exit 1; }
[ -x "$HELPERS/workload" ] || { echo "scaling.sh: no workload helper (make helpers)" >&2; exit 1; }
CG=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [ -n "$CG" ] && [ -d "$CG/tdtop-scaling" ]; then
		for d in "$CG"/tdtop-scaling/*/; do
			[ -d "$d" ] || continue
			while read -r p; do echo "$p" >"$CG/cgroup.procs" 2>/dev/null || true; done \
				<"$d/cgroup.procs"
			rmdir "$d" 2>/dev/null || true
		done
		rmdir "$CG/tdtop-scaling" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

bench_ns() {
	taskset -c "$CPU" perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1 * 1000 / 2 }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Starts N threads that run once, so that each gets an entry, and then
# stay blocked; returns once they are all up.
start_threads() {
	"$HELPERS/workload" --now --timeout 600 threads "$1" 0 >"$tmp/wl" < <(sleep 3600) &
	pids+=($!)
	until grep -q '"phase":"done"' "$tmp/wl" 2>/dev/null; do sleep 0.1; done
}

# Starts one process in each of the first K cgroups: it runs once in its
# cgroup (an entry keyed by it) and then sleeps.
start_cgroup_procs() {
	local g
	for g in $(seq 0 $(($1 - 1))); do
		sh -c 'echo $$ > "$1/cgroup.procs"; exec sleep 600' _ "$CG/tdtop-scaling/g$g" &
		pids+=($!)
	done
}

stop_started() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	pids=()
}

# Added ns/switch, tdtop's CPU % and RSS in KiB with tdtop running ARGS
# after SETUP (a command, run once tdtop is attached, that gives the
# tasks their entries).
measure() {
	local setup=$1 adds=() cpus=() rss=() out=$tmp/out i n
	shift
	for i in $(seq "$REPS"); do
		base=$(bench_ns)
		: >"$out"
		"$TDTOP" -b -o json -e "$EVENTS" -d 1 "$@" >"$out" 2>/dev/null &
		local tp=$!
		until grep -q '"type":"interval"' "$out" 2>/dev/null; do sleep 0.05; done
		$setup
		# the tasks' entries are in, and the BPF statistics sample is over
		n=$(grep -c '"type":"interval"' "$out")
		until [ "$(grep -c '"type":"interval"' "$out")" -ge $((n + 2)) ]; do sleep 0.05; done
		loaded=$(bench_ns)
		# userspace: the median over 12 quiet intervals (one of them
		# checks that the remembered tasks still exist)
		n=$(grep -c '"type":"interval"' "$out")
		until [ "$(grep -c '"type":"interval"' "$out")" -ge $((n + 13)) ]; do sleep 0.2; done
		rss+=("$(awk '/^VmRSS/ { print $2 }' /proc/$tp/status)")
		kill -INT "$tp"; wait "$tp" || true
		stop_started
		cpus+=("$(grep -o '"self":{[^}]*}' "$out" | tail -n 12 |
			grep -o '"cpu_pct":[0-9.e-]*' | cut -d: -f2 | median)")
		adds+=("$(awk -v a="$loaded" -v b="$base" 'BEGIN { print a - b }')")
	done
	printf '%s %s %s\n' "$(printf '%s\n' "${adds[@]}" | median)" \
		"$(printf '%s\n' "${cpus[@]}" | median)" "$(printf '%s\n' "${rss[@]}" | median)"
}

echo "kernel $(uname -r), $(date -u +%Y-%m-%d), $(nproc) CPUs; events $EVENTS;" \
	"pipe benchmark pinned to CPU $CPU, $REPS repetitions, medians"
echo
echo "threads alive   +ns/switch   tdtop CPU %   tdtop RSS KiB"
for n in 1 1000 10000; do
	read -r add cpu rss < <(measure "start_threads $n")
	printf '%13d %12.0f %13.2f %15s\n' "$n" "$add" "$cpu" "$rss"
done

echo
echo "cgroups         +ns/switch   tdtop CPU %   tdtop RSS KiB   (--by cgroup)"
mkdir -p "$CG/tdtop-scaling"
for k in 1 100 1000; do
	for g in $(seq 0 $((k - 1))); do mkdir -p "$CG/tdtop-scaling/g$g"; done
	read -r add cpu rss < <(measure "start_cgroup_procs $k" --by cgroup)
	printf '%13d %12.0f %13.2f %15s\n' "$k" "$add" "$cpu" "$rss"
done

echo
start=$(date +%s.%N)
"$TDTOP" -b -o json -e "$EVENTS" -d 0.5 -n 1 >/dev/null 2>&1
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "start to first complete interval (-d 0.5): %.3f s, so %.3f s plus the interval\n", e - s, e - s - 0.5 }'
