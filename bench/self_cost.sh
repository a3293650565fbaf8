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

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

DELAY=1
INTERVALS=13
REPS=3
THREADS=10000
side_by_side_args "e:EVENTS d:DELAY n:INTERVALS r:REPS T:THREADS" "$@"
need_cmds python3

one_run() {
	local t=$1 n=$2 first

	start_tdtop "$t" -e "$EVENTS" -d "$DELAY"
	wait_intervals 1 30
	[ "$n" -eq 0 ] || start_threads "$n" 0
	# from the interval after the one the threads started in
	first=$(($(intervals) + 2))
	wait_intervals $((first + INTERVALS - 1)) 0 0.2
	end_tdtop
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
run_side_by_side
echo "events $EVENTS, -d $DELAY, $INTERVALS intervals a run, $REPS repetitions"
summarize_runs "median max" "%s: median %.3f %%, largest interval %.3f %%"
