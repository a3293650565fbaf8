#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hardware check of tdtop's TopDown numbers: run workloads of known
# character, measure each with tdtop (its default read path, then again
# with --helper-reads) and then with perf stat for the same process and
# duration, print them side by side and pack everything into a tarball to
# send back. Then the same for a list of named events on the alu workload
# (-E: vendor names through libpfm4, perf's modifiers), as counts per
# second. Fails when tdtop's two read paths differ by more than 0.5
# percentage points in a category, or tdtop's and perf's rates of an event
# by more than 10 %. Skips (exit 0) where there is no TopDown PMU.
# docs/topdown.md describes it.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TDTOP=${TDTOP:-$TOP/tdtop}
PERF=${PERF:-perf}
CC=${CC:-cc}
SECS=10
NFUNC=10000
MEM_MIB=256
CPU=
WORKLOADS="alu branch memory frontend"
OUT=
DRY=0
EVENTS=
EVENTS_SET=0

usage() {
	cat <<EOF
usage: sudo $0 [-t SECS] [-w "alu branch memory frontend"] [-c CPU] [-o FILE.tar.gz]
       [-F FUNCTIONS] [-m MIB] [-E EVENTS] [-n]
  -t SECS       measurement length for each tdtop run and for perf (default $SECS)
  -w LIST       workloads to run (default: $WORKLOADS)
  -c CPU        CPU to pin the workloads to (default: the first CPU of TopDown part 0)
  -o FILE       tarball to write (default: tdtop-hw-<host>-<date>.tar.gz here)
  -F N          functions in the generated frontend workload (default $NFUNC)
  -m MIB        memory of the pointer-chasing workload (default $MEM_MIB)
  -E EVENTS     -e list counted by tdtop, then perf stat, on the alu workload (default
                on Intel: instructions,inst_retired.any,cycles,cycles:u, on hybrid Intel
                the same as cpu_core/NAME/; elsewhere: instructions,instructions:u,
                cycles,cycles:u; "" for none)
  -n            print the plan (method, perf metric group, commands) and exit
Environment: TDTOP (binary, default ./tdtop), PERF (default perf), CC (default cc).
Exit status: 0 done or skipped (no TopDown PMU: the message starts with SKIP), 1 failure
(tdtop could not measure a workload, its default read path and --helper-reads differ
by more than 0.5 points, or its rate of an -E event and perf's by more than 10 %; the
tarball is still written), 2 usage error.
EOF
}

die() {
	echo "check.sh: $*" >&2
	exit 1
}

while getopts "t:w:c:o:F:m:E:nh" opt; do
	case $opt in
	t) SECS=$OPTARG ;;
	w) WORKLOADS=$OPTARG ;;
	c) CPU=$OPTARG ;;
	o) OUT=$OPTARG ;;
	F) NFUNC=$OPTARG ;;
	m) MEM_MIB=$OPTARG ;;
	E) EVENTS=$OPTARG EVENTS_SET=1 ;;
	n) DRY=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
for n in "$SECS" "$NFUNC" "$MEM_MIB"; do
	case $n in ''|*[!0-9]*) echo "check.sh: '$n' is not a number" >&2; exit 2 ;; esac
done
for wl in $WORKLOADS; do
	case $wl in alu|branch|memory|frontend) ;;
	*) echo "check.sh: unknown workload '$wl'" >&2; exit 2 ;;
	esac
done

[ -x "$TDTOP" ] || die "no tdtop binary at $TDTOP (run make, or set TDTOP)"

# TopDown discovery needs no privileges: decide to skip before anything else.
LIST=$("$TDTOP" --list 2>&1) || die "'$TDTOP --list' failed: $LIST"
TDLINE=$(printf '%s\n' "$LIST" | sed -n 's/^TopDown: *//p')
case $TDLINE in
'')
	die "'$TDTOP --list' printed no TopDown line" ;;
unavailable:*)
	echo "SKIP: no TopDown on this machine: ${TDLINE#unavailable: }"
	exit 0 ;;
esac
METHOD=${TDLINE%%,*}
case $METHOD in
*amd_zen*) GROUP=PipelineL1 ;;
*) GROUP=TopdownL1 ;;
esac
SMTFLAG=
if printf '%s\n' "$LIST" | grep -q '^Per core only:'; then
	SMTFLAG=--allow-smt
fi
if [ -z "$CPU" ]; then
	CPU=$(printf '%s\n' "$LIST" | sed -n 's/^Part 0: .*, CPUs \([0-9]*\).*/\1/p')
	CPU=${CPU:-0}
fi
TDTOP_ARGS="-o json -d 1 -n $SECS --level 1 --strict${SMTFLAG:+ $SMTFLAG}"
# inst_retired.any is spelt alike by perf and libpfm4 on Intel CPUs only;
# on hybrid ones both name each event of the pinned (part 0) core's PMU
if [ "$EVENTS_SET" = 0 ]; then
	CORE=$(printf '%s\n' "$LIST" | sed -n 's/^Part 0: .* on \([a-z_0-9]*\),.*/\1/p')
	case $METHOD in
	*amd_*|*arm*) EVENTS=instructions,instructions:u,cycles,cycles:u ;;
	*" + "*) EVENTS="$CORE/instructions/,$CORE/inst_retired.any/,$CORE/cycles/,$CORE/cycles/u" ;;
	*) EVENTS=instructions,inst_retired.any,cycles,cycles:u ;;
	esac
fi

if [ "$DRY" = 1 ]; then
	echo "method:   $METHOD"
	echo "tdtop:    $TDTOP $TDTOP_ARGS -p PID"
	echo "          then the same with --helper-reads"
	echo "perf:     $PERF stat -M $GROUP -x, -p PID -- sleep $SECS"
	echo "pinned:   CPU $CPU"
	echo "workloads: $WORKLOADS"
	[ -n "$EVENTS" ] &&
		echo "events:   $TDTOP -o json -d 1 -n $SECS -e $EVENTS -p PID, then" \
			"$PERF stat -e $EVENTS -x, -p PID -- sleep $SECS (alu)"
	[ -n "$SMTFLAG" ] && echo "note:     per-core-only TopDown (SMT): tdtop runs with $SMTFLAG"
	exit 0
fi

[ "$(id -u)" = 0 ] || die "needs root (tdtop loads BPF; perf stat attaches to the workload)"
command -v "$CC" >/dev/null 2>&1 || die "no C compiler ('$CC'); set CC"
HAVE_PERF=1
command -v "$PERF" >/dev/null 2>&1 || HAVE_PERF=0
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c $CPU"

STAMP=$(date +%Y%m%d-%H%M%S)
NAME=tdtop-hw-$(hostname 2>/dev/null || echo host)-$STAMP
OUT=${OUT:-$PWD/$NAME.tar.gz}
TMP=$(mktemp -d /tmp/tdtop-hw.XXXXXX) || die "failed to create a temp dir"
W=$TMP/$NAME
mkdir -p "$W" || die "failed to create $W"
WLPID=
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	[ -n "$WLPID" ] && kill "$WLPID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# This machine as a fixture tree (tests/fixtures/sysfs/README.md): PMU
# files, SMT state, the first cpuinfo block and the NMI watchdog.
save_fixture() {
	for p in /sys/bus/event_source/devices/*; do
		d=$1/bus/event_source/devices/${p##*/}
		mkdir -p "$d"
		for f in type cpus cpumask; do
			[ -r "$p/$f" ] && cat "$p/$f" >"$d/$f" 2>/dev/null
		done
		for sub in format events caps; do
			[ -d "$p/$sub" ] || continue
			mkdir -p "$d/$sub"
			for f in "$p/$sub"/*; do
				[ -f "$f" ] && cat "$f" >"$d/$sub/${f##*/}" 2>/dev/null
			done
		done
	done
	mkdir -p "$1/devices/system/cpu/smt"
	cat /sys/devices/system/cpu/smt/active >"$1/devices/system/cpu/smt/active" 2>/dev/null
	cat /sys/devices/system/cpu/online >"$1/devices/system/cpu/online" 2>/dev/null
	sed -n '1,/^$/p' /proc/cpuinfo >"$1/cpuinfo" 2>/dev/null
	cat /proc/sys/kernel/nmi_watchdog >"$1/nmi_watchdog" 2>/dev/null
	return 0
}

# What the user sends back: the machine, the versions, the discovery.
printf '%s\n' "$LIST" >"$W/list.txt"
{
	uname -a
	"$TDTOP" --version 2>&1
	[ "$HAVE_PERF" = 1 ] && "$PERF" --version 2>&1
	"$CC" --version 2>&1 | head -1
	echo "nmi_watchdog: $(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null)"
	echo "perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)"
	echo "args: -t $SECS -w '$WORKLOADS' -c $CPU -F $NFUNC -m $MEM_MIB"
} >"$W/system.txt"
save_fixture "$W/sysfs"

echo "building the workloads"
GEN=
case " $WORKLOADS " in
*" frontend "*)
	awk -v n="$NFUNC" -v seed=1 -f "$HERE/gen_frontend.awk" >"$W/frontend_gen.c" ||
		die "failed to generate the frontend workload"
	GEN="-DHAVE_GEN $W/frontend_gen.c" ;;
esac
# shellcheck disable=SC2086 # GEN is two words on purpose
"$CC" -O1 -o "$W/workloads" "$HERE/workloads.c" $GEN >"$W/build.log" 2>&1 ||
	die "failed to build the workloads (see $W/build.log)"
rm -f "$W/frontend_gen.c"

FAILED=0
HAVE_RECORD=0
"$TDTOP" record --help >/dev/null 2>&1 && HAVE_RECORD=1

# start_workload WORKLOAD [TAG]: start one workload (its files named TAG,
# default the workload) and wait until its loop runs; sets WLPID.
start_workload() {
	tag=${2:-$1}
	rm -f "$W/$tag.pid"
	# shellcheck disable=SC2086 # PIN is a command and its arguments
	$PIN "$W/workloads" "$1" $((3 * SECS + 30)) "$W/$tag.pid" "$MEM_MIB" \
		>"$W/$tag.out" 2>&1 &
	WLPID=$!
	tries=0
	while [ ! -s "$W/$tag.pid" ]; do
		kill -0 "$WLPID" 2>/dev/null || die "workload $1 exited early (see $tag.out)"
		tries=$((tries + 1))
		[ $tries -gt 600 ] && die "workload $1 did not start within 120 s"
		sleep 0.2
	done
	sleep 1
}

# measure WORKLOAD SUFFIX [OPTION]: one tdtop run into WORKLOAD.SUFFIX.json
measure() {
	# shellcheck disable=SC2086 # TDTOP_ARGS holds several options
	if ! "$TDTOP" $TDTOP_ARGS ${3:-} -p "$WLPID" >"$W/$1.$2.json" 2>"$W/$1.$2.err"; then
		echo "  tdtop${3:+ $3} failed: $(tail -1 "$W/$1.$2.err")"
		FAILED=1
	fi
}

# tdtop first, then perf, never both at once: the TopDown counters (e.g.
# SLOTS/PERF_METRICS) are one per CPU, and two users would multiplex them.
for wl in $WORKLOADS; do
	echo "running $wl: tdtop ${SECS}s, tdtop --helper-reads ${SECS}s, then perf ${SECS}s"
	start_workload "$wl"
	measure "$wl" tdtop
	measure "$wl" tdtop-helper --helper-reads
	if [ "$HAVE_PERF" = 1 ]; then
		"$PERF" stat -M "$GROUP" -x, -o "$W/$wl.perf.csv" -p "$WLPID" -- sleep "$SECS" \
			2>"$W/$wl.perf.err" ||
			"$PERF" stat --topdown -x, -o "$W/$wl.perf.csv" -p "$WLPID" -- \
				sleep "$SECS" 2>>"$W/$wl.perf.err" ||
			echo "  perf stat failed: $(tail -1 "$W/$wl.perf.err")"
	fi
	if [ "$HAVE_RECORD" = 1 ]; then
		"$TDTOP" record -o "$W/$wl.tdtop-rec" -d 1 -n 3 --level 1 $SMTFLAG -p "$WLPID" \
			>/dev/null 2>"$W/$wl.record.err" || echo "  tdtop record failed"
	fi
	kill "$WLPID" 2>/dev/null
	wait "$WLPID" 2>/dev/null
	WLPID=
done

# The named events, tdtop first and then perf again: what each counts for
# the same steady loop, per second.
if [ -n "$EVENTS" ]; then
	echo "running alu with -e $EVENTS: tdtop ${SECS}s, then perf ${SECS}s"
	start_workload alu events
	if ! "$TDTOP" -o json -d 1 -n "$SECS" -e "$EVENTS" -p "$WLPID" \
		>"$W/events.tdtop.json" 2>"$W/events.tdtop.err"; then
		echo "  tdtop -e $EVENTS failed: $(tail -1 "$W/events.tdtop.err")"
		FAILED=1
	fi
	if [ "$HAVE_PERF" = 1 ]; then
		"$PERF" stat -e "$EVENTS" -x, -o "$W/events.perf.csv" -p "$WLPID" -- \
			sleep "$SECS" 2>"$W/events.perf.err" ||
			echo "  perf stat -e failed: $(tail -1 "$W/events.perf.err")"
	fi
	kill "$WLPID" 2>/dev/null
	wait "$WLPID" 2>/dev/null
	WLPID=
fi
[ "$HAVE_PERF" = 1 ] || echo "note: no perf binary ('$PERF'): only tdtop's numbers" |
	tee "$W/no-perf.txt"

echo
if command -v python3 >/dev/null 2>&1; then
	# shellcheck disable=SC2086 # one argument per workload
	python3 "$HERE/compare.py" ${EVENTS:+-e "$SECS"} "$W" $WORKLOADS >"$W/summary.txt" 2>&1 ||
		FAILED=1
	cat "$W/summary.txt"
else
	echo "no python3: raw outputs only (see the tarball)" | tee "$W/summary.txt"
fi

tar -czf "$OUT" -C "$TMP" "$NAME" || die "failed to write $OUT"
echo
echo "wrote $OUT: please send it back with the summary above"
[ "$FAILED" = 0 ] ||
	echo "check.sh: tdtop failed on some workloads, or its read paths differ (see the" \
		"summary above and the .err files in the tarball)" >&2
exit "$FAILED"
