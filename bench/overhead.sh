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

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

LOOPS=100000
REPS=9
CPU=0
RAW=
parse_opts "l:LOOPS r:REPS c:CPU t:TDTOP o:RAW" "$@"

SETS=(
	"cpu-clock"
	"cpu-clock,page-faults,context-switches"
	"cpu-clock,page-faults,context-switches,cpu-migrations,task-clock"
)

need_root
need_cmds perf
need_tdtop "$TDTOP"

# tdtop is attached once it has printed its first interval; the run starts
# after the second, when tdtop has switched the kernel's BPF statistics off
# again (it samples them one interval in ten, starting with the first, and
# they slow every BPF program down while on). Extra arguments go to tdtop.
# Sets us, not printed: a tdtop that failed is stopped by this shell's
# cleanup, which a command substitution would not run.
tdtop_run() {
	local set=$1

	shift
	start_tdtop "$TDTOP" -e "$set" -d 1 "$@"
	wait_intervals 2 10
	us=$(pipe_us)
	end_tdtop
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
			b=$(pipe_us)
			case $(((rep + k + j) % 3)) in
			0) tool=tdtop; tdtop_run "$s" ;;
			1) tool=helper; tdtop_run "$s" --helper-reads ;;
			2) tool=perf; us=$(pipe_us perf stat -e "$s" -o /dev/null --) ;;
			esac
			echo "$rep,$n,$tool,$us,$b" >>"$raw"
		done
	done
	printf 'rep %d/%d done\r' "$rep" "$REPS" >&2
done
echo >&2
[ -z "$RAW" ] || cp "$raw" "$RAW"

echo "perf bench sched pipe -l $LOOPS pinned to CPU $CPU, $REPS repetitions, medians"
machine
awk -F, "$AWK_MEDIAN"'
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
