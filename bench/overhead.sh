#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# What tdtop adds to every context switch, next to perf's own per-task
# counting of the same events. Not a test: prints a table.
#
#   sudo bench/overhead.sh [-l LOOPS] [-r REPS] [-c CPU] [-t TDTOP] [-o RAW.csv]
#
# The workload is `perf bench sched pipe`, pinned to one CPU (unpinned it
# measures cross-CPU wake-up latency, not switch cost): each op is two
# switches, so ns/switch = (µs/op * 1000) / 2. Every repetition runs, in a
# rotating order and each right after a run of the bare benchmark (base),
# the benchmark while
# `tdtop -b -o json -e SET -d 1` runs, the same with --helper-reads (every
# counter read through the BPF helper), and `perf stat -e SET -- <benchmark>`,
# for 1, 3 and 5 software events. Reported: medians of ns/switch, the added
# cost = median over repetitions of (tool - the base run just before it),
# and the tdtop/perf ratio of the added costs.
set -euo pipefail

LOOPS=100000
REPS=9
CPU=0
TDTOP=$(dirname "$0")/../tdtop
RAW=

usage() {
	sed -n 's/^#   //p' "$0"
	exit 2
}

while getopts "l:r:c:t:o:h" opt; do
	case $opt in
	l) LOOPS=$OPTARG ;;
	r) REPS=$OPTARG ;;
	c) CPU=$OPTARG ;;
	t) TDTOP=$OPTARG ;;
	o) RAW=$OPTARG ;;
	*) usage ;;
	esac
done

SETS=(
	"cpu-clock"
	"cpu-clock,page-faults,context-switches"
	"cpu-clock,page-faults,context-switches,cpu-migrations,task-clock"
)

[ "$(id -u)" -eq 0 ] || { echo "overhead.sh: needs root (tdtop loads BPF)" >&2; exit 1; }
command -v perf >/dev/null || { echo "overhead.sh: perf not found" >&2; exit 1; }
[ -x "$TDTOP" ] || { echo "overhead.sh: no tdtop at $TDTOP (run make)" >&2; exit 1; }

tmp=$(mktemp -d)
tdtop_pid=
cleanup() {
	if [ -n "$tdtop_pid" ]; then
		kill -INT "$tdtop_pid" 2>/dev/null || true
		wait "$tdtop_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# µs per op of one pinned benchmark run; extra arguments prefix the command.
bench_us() {
	"$@" taskset -c "$CPU" perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1; found = 1 } END { exit !found }'
}

base_run() {
	bench_us
}

perf_run() {
	bench_us perf stat -e "$1" -o /dev/null --
}

# tdtop is attached once it has printed its first interval; the run starts
# after the second, when tdtop has switched the kernel's BPF statistics off
# again (it samples them one interval in ten, starting with the first, and
# they slow every BPF program down while on). Extra arguments go to tdtop.
tdtop_run() {
	local out=$tmp/tdtop.out us i set=$1

	shift
	: >"$out"
	"$TDTOP" -b -o json -e "$set" -d 1 "$@" >"$out" 2>"$tmp/tdtop.err" &
	tdtop_pid=$!
	for i in $(seq 200); do
		[ "$(grep -c '"type":"interval"' "$out")" -ge 2 ] && break
		kill -0 "$tdtop_pid" 2>/dev/null || break
		sleep 0.05
	done
	if [ "$(grep -c '"type":"interval"' "$out")" -lt 2 ]; then
		echo "overhead.sh: tdtop did not start: $(cat "$tmp/tdtop.err")" >&2
		exit 1
	fi
	us=$(bench_us)
	kill -INT "$tdtop_pid"
	wait "$tdtop_pid" || { echo "overhead.sh: tdtop failed: $(cat "$tmp/tdtop.err")" >&2; exit 1; }
	tdtop_pid=
	echo "$us"
}

raw=$tmp/raw.csv
echo "rep,events,tool,us_per_op,base_us_per_op" >"$raw"
nsets=${#SETS[@]}
for rep in $(seq "$REPS"); do
	# each set with each tool, starting at a different set and tool each
	# time, every tool run right after a base run of its own: the machine's
	# speed drifts over seconds, so only close pairs compare
	for k in $(seq 0 $((nsets - 1))); do
		s=${SETS[$(((k + rep) % nsets))]}
		n=$(awk -F, '{ print NF }' <<<"$s")
		for j in 0 1 2; do
			b=$(base_run)
			case $(((rep + k + j) % 3)) in
			0) echo "$rep,$n,tdtop,$(tdtop_run "$s"),$b" >>"$raw" ;;
			1) echo "$rep,$n,helper,$(tdtop_run "$s" --helper-reads),$b" >>"$raw" ;;
			2) echo "$rep,$n,perf,$(perf_run "$s"),$b" >>"$raw" ;;
			esac
		done
	done
	printf 'rep %d/%d done\r' "$rep" "$REPS" >&2
done
echo >&2
[ -z "$RAW" ] || cp "$raw" "$RAW"

echo "perf bench sched pipe -l $LOOPS pinned to CPU $CPU, $REPS repetitions, medians"
echo "kernel $(uname -r), $(date -u +%Y-%m-%d), $(nproc) CPUs"
awk -F, '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
NR == 1 { next }
{
	ns = $4 * 1000 / 2	# two switches per op
	key = $2 SUBSEP $3
	val[key, ++cnt[key]] = ns
	base[key, cnt[key]] = $5 * 1000 / 2
	b[++nb] = $5 * 1000 / 2
	nsets[$2] = 1
}
END {
	mb = median(b, nb)
	printf "%-7s %8s %8s %8s %8s %8s %8s %11s %11s\n", "events", "base", "tdtop", "+tdtop",
		"+helper", "perf", "+perf", "tdtop/perf", "helper/perf"
	split("tdtop helper perf", tools, " ")
	for (n = 1; n <= 16; n++) {
		if (!(n in nsets)) continue
		for (t = 1; t <= 3; t++) {
			tool = tools[t]
			key = n SUBSEP tool
			delete v; delete d
			for (i = 1; i <= cnt[key]; i++) {
				v[i] = val[key, i]
				d[i] = val[key, i] - base[key, i]
			}
			med[tool] = median(v, cnt[key])
			add[tool] = median(d, cnt[key])
		}
		printf "%-7d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %11.2f %11.2f\n", n, mb,
			med["tdtop"], add["tdtop"], add["helper"], med["perf"], add["perf"],
			(add["perf"] > 0 ? add["tdtop"] / add["perf"] : 0),
			(add["perf"] > 0 ? add["helper"] / add["perf"] : 0)
	}
	print "(ns per context switch; +tool = median of tool - the base run just before it)"
}' "$raw"
