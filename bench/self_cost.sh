#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# tdtop's own CPU use with many idle threads alive: the `self.cpu_pct` it
# reports for each interval. Not a test: prints one line per tdtop binary,
# thread count and repetition, alternating, then the medians.
#
#   sudo bench/self_cost.sh [-e EVENTS] [-d SECS] [-n INTERVALS] [-r REPS] [-T "N..."] [TDTOP...]
#
# Each run starts tdtop, then THREADS threads (-T, "10000" by default) that
# run briefly, so that each has an entry in the task table, and block; once
# they are up it takes INTERVALS (13) intervals of -d SECS (1). Per run:
# the median and the largest interval, which shows work done only in some
# intervals. Compare binaries side by side in one run.
set -euo pipefail

EVENTS=cpu-clock,page-faults,context-switches
DELAY=1
INTERVALS=13
REPS=3
THREADS=10000
HELPERS=$(dirname "$0")/../.output/std/helpers

NAME=self_cost.sh
# shellcheck source=bench/side_by_side.sh
. "$(dirname "$0")/side_by_side.sh"

while getopts "e:d:n:r:T:h" opt; do
	case $opt in
	e) EVENTS=$OPTARG ;;
	d) DELAY=$OPTARG ;;
	n) INTERVALS=$OPTARG ;;
	r) REPS=$OPTARG ;;
	T) THREADS=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- "$(dirname "$0")/../tdtop"
check_setup "$@"

intervals() { grep -c '"type":"interval"' "$tmp/out" || true; }

one_run() {
	local t=$1 n=$2 first

	: >"$tmp/out"
	"$t" -b -o json -e "$EVENTS" -d "$DELAY" >"$tmp/out" 2>"$tmp/err" &
	tdtop_pid=$!
	wait_for "$tmp/out" '"type":"interval"' 30 ||
		{ echo "$NAME: $t did not start: $(cat "$tmp/err")" >&2; exit 1; }
	[ "$n" -eq 0 ] || start_threads "$n" 0
	# from the interval after the one the threads started in
	first=$(($(intervals) + 2))
	while [ "$(intervals)" -lt $((first + INTERVALS - 1)) ]; do
		kill -0 "$tdtop_pid" 2>/dev/null ||
			{ echo "$NAME: $t ended early: $(cat "$tmp/err")" >&2; exit 1; }
		sleep 0.2
	done
	stop_tdtop
	stop_threads
	grep '"type":"interval"' "$tmp/out" | sed -n "${first},$((first + INTERVALS - 1))p" |
		python3 -c '
import json, statistics, sys
pct = [json.loads(l).get("self", {}).get("cpu_pct") for l in sys.stdin]
if not pct or None in pct:
    sys.exit("self_cost.sh: intervals without self.cpu_pct")
print("%s,threads=%s %.3f %.3f" % (sys.argv[1], sys.argv[2], statistics.median(pct), max(pct)))' "$t" "$n"
}

echo "tdtop CPU % of one CPU per interval: median, largest"
run_side_by_side "$@"
echo "events $EVENTS, -d $DELAY, $INTERVALS intervals a run, $REPS repetitions"
python3 -c '
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    what, med, top = line.split()
    runs.setdefault(what, []).append((float(med), float(top)))
for what, r in runs.items():
    print("%s: median %.3f %%, largest interval %.3f %%" % (
        what, statistics.median(m for m, _ in r), max(t for _, t in r)))' "$tmp/runs"
