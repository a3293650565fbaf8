#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Checks of check.sh that need no PMU: the skip on a machine without
# TopDown (a fixture without a core PMU), the plan it makes for fixture
# CPUs (the -E events among it), its usage errors, and compare.py on
# hand-made tdtop/perf outputs, its comparison of the two read paths and
# of the events' rates among them.
# Usage: tests/hw/selftest.sh (TDTOP defaults to ./tdtop). Exit 0 if all pass.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
FX=$TOP/tests/fixtures/sysfs
export TDTOP="${TDTOP:-$TOP/tdtop}"
FAILS=0
TMP=$(mktemp -d /tmp/tdtop-hw-selftest.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*"
	FAILS=$((FAILS + 1))
}

# expect NAME RC PATTERN command...: exit status RC and PATTERN in the output
expect() {
	name=$1 want_rc=$2 pattern=$3
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		fail "$name: exit $rc, want $want_rc; output: $out"
	elif ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
		fail "$name: '$pattern' not in: $out"
	else
		echo "ok   $name"
	fi
}

[ -x "$TDTOP" ] || { echo "selftest: no tdtop at $TDTOP (run make)"; exit 1; }

expect skip-without-pmu 0 '^SKIP: no TopDown on this machine: no hardware PMU' \
	env TDTOP_SYSFS="$FX/vm-nopmu" "$HERE/check.sh"
expect plan-perf-metrics 0 'perf stat -M TopdownL1' \
	env TDTOP_SYSFS="$FX/sapphirerapids" "$HERE/check.sh" -n
expect plan-both-read-paths 0 'then the same with --helper-reads' \
	env TDTOP_SYSFS="$FX/sapphirerapids" "$HERE/check.sh" -n
expect plan-amd 0 'perf stat -M PipelineL1' \
	env TDTOP_SYSFS="$FX/zen4" "$HERE/check.sh" -n
expect plan-smt 0 'runs with --allow-smt' \
	env TDTOP_SYSFS="$FX/skylake-smt" "$HERE/check.sh" -n
expect plan-hybrid-cpu 0 'pinned:   CPU 0' \
	env TDTOP_SYSFS="$FX/alderlake" "$HERE/check.sh" -n
expect plan-events-intel 0 '\-e instructions,inst_retired.any,cycles,cycles:u -p PID' \
	env TDTOP_SYSFS="$FX/sapphirerapids" "$HERE/check.sh" -n
expect plan-events-hybrid 0 'perf stat -e cpu_core/instructions/,cpu_core/inst_retired.any/,' \
	env TDTOP_SYSFS="$FX/alderlake" "$HERE/check.sh" -n
expect plan-events-amd 0 '\-e instructions,instructions:u,cycles,cycles:u' \
	env TDTOP_SYSFS="$FX/zen4" "$HERE/check.sh" -n
expect plan-events-given 0 '\-e mem_load_retired.l3_miss:k -p PID' \
	env TDTOP_SYSFS="$FX/icelake" "$HERE/check.sh" -n -E mem_load_retired.l3_miss:k
if env TDTOP_SYSFS="$FX/icelake" "$HERE/check.sh" -n -E "" | grep -q '^events:'; then
	fail "plan-events-none: -E '' still plans an events run"
else
	echo "ok   plan-events-none"
fi
expect bad-workload 2 "unknown workload 'idle'" "$HERE/check.sh" -w idle
expect bad-seconds 2 "'ten' is not a number" "$HERE/check.sh" -t ten
expect no-binary 1 'no tdtop binary' env TDTOP=/nonexistent "$HERE/check.sh"

# compare.py: slot-weighted tdtop rows of the workload's pid against perf's CSV
cat >"$TMP/alu.tdtop.json" <<'EOF'
{"type":"interval","ts":1.0,"method":"perf_metrics","topdown":{"retiring":0.1}}
{"type":"process","pid":42,"topdown":{"retiring":0.8,"bad_speculation":0.05,"frontend_bound":0.05,"backend_bound":0.1},"slots":3000000,"ipc":3.1}
{"type":"process","pid":7,"topdown":{"retiring":0.1,"bad_speculation":0.1,"frontend_bound":0.1,"backend_bound":0.7},"slots":9000000,"ipc":0.4}
{"type":"process","pid":42,"topdown":{"retiring":0.6,"bad_speculation":0.05,"frontend_bound":0.15,"backend_bound":0.2},"slots":1000000,"ipc":2.9}
{"type":"process","pid":42,"topdown":{"retiring":null},"slots":null}
not json
EOF
echo "42" >"$TMP/alu.pid"
cat >"$TMP/alu.perf.csv" <<'EOF'
# started on Mon Jan  1 00:00:00 2026

40000000,,TOPDOWN.SLOTS,2000000000,100.00,,
30000000,,topdown-retiring,2000000000,100.00,74.0,%  tma_retiring
2000000,,topdown-bad-spec,2000000000,100.00,6.0,%  tma_bad_speculation
3000000,,topdown-fe-bound,2000000000,100.00,8.5,%  tma_frontend_bound
5000000,,topdown-be-bound,2000000000,100.00,11.5,%  tma_backend_bound
EOF
# the --helper-reads run: within 0.5 points of the default one (75.0 5.0 7.5 12.5)
cat >"$TMP/alu.tdtop-helper.json" <<'EOF'
{"type":"process","pid":42,"topdown":{"retiring":0.746,"bad_speculation":0.052,"frontend_bound":0.077,"backend_bound":0.125},"slots":4000000}
EOF
out=$(python3 "$HERE/compare.py" "$TMP" alu 2>&1)
rc=$?
# tdtop: retiring (0.8*3 + 0.6*1) / 4 = 75.0 %, backend (0.1*3 + 0.2*1) / 4 = 12.5 %
for want in 'tdtop       75.0      5.0      7.5     12.5' \
	'perf        74.0      6.0      8.5     11.5' \
	'diff         1.0     -1.0     -1.0      1.0' \
	'largest: tdtop retiring, perf retiring' 'largest difference: 1.0 points' \
	'default     75.0      5.0      7.5     12.5' 'helper      74.6      5.2      7.7     12.5' \
	'agree within 0.5 points'; do
	if printf '%s\n' "$out" | grep -q -- "$want"; then
		echo "ok   compare: $want"
	else
		fail "compare: '$want' not in: $out"
	fi
done

if [ "$rc" = 0 ]; then
	echo "ok   compare: read paths that agree exit 0"
else
	fail "compare: exit $rc for read paths that agree: $out"
fi

# 0.6 points apart in retiring and bad speculation: a failure
cat >"$TMP/alu.tdtop-helper.json" <<'EOF'
{"type":"process","pid":42,"topdown":{"retiring":0.744,"bad_speculation":0.056,"frontend_bound":0.075,"backend_bound":0.125},"slots":4000000}
EOF
out=$(python3 "$HERE/compare.py" "$TMP" alu 2>&1)
rc=$?
if [ "$rc" = 1 ] && printf '%s\n' "$out" |
	grep -q 'DIFFER: retiring +0.60, bad_speculation -0.60'; then
	echo "ok   compare: read paths 0.6 points apart fail"
else
	fail "compare: read paths 0.6 points apart: exit $rc: $out"
fi

# read_path_differences() itself, on numbers at and around the limit
if out=$(cd "$HERE" && PYTHONDONTWRITEBYTECODE=1 python3 -c '
import compare
d = {"retiring": 40.0, "bad_speculation": 10.0, "frontend_bound": 20.0, "backend_bound": 30.0}
near = dict(d, retiring=40.5, backend_bound=29.5)
far = dict(d, frontend_bound=20.51)
assert compare.read_path_differences(d, near) == {}, "0.5 points is within"
got = compare.read_path_differences(d, far)
assert list(got) == ["frontend_bound"] and abs(got["frontend_bound"] + 0.51) < 1e-9, got
assert compare.read_path_differences(d, dict(d, smt_contention=1.0)) == {"smt_contention": None}
assert set(compare.read_path_differences({}, d)) == {
    "retiring", "bad_speculation", "frontend_bound", "backend_bound"}, "no rows must fail"
assert compare.read_path_differences(d, far, limit=1.0) == {}
' 2>&1); then
	echo "ok   compare: read_path_differences() at the limit"
else
	fail "compare: read_path_differences(): $out"
fi

# the AMD and legacy spellings of perf's metric units
printf '%s\n' '1,,ls_not_halted_cyc,1,100.00,31.5,%  retiring' \
	',,,,,2.0,% bad speculation' '5,,x,1,100.00,40.25,backend_bound' \
	'<not counted>,,y,0,0.00,,%  tma_frontend_bound' >"$TMP/amd.perf.csv"
echo "1" >"$TMP/amd.pid"
: >"$TMP/amd.tdtop.json"
out=$(python3 "$HERE/compare.py" "$TMP" amd 2>&1)
if printf '%s\n' "$out" | grep -q 'perf        31.5      2.0        -     40.2'; then
	echo "ok   compare: perf unit spellings"
else
	fail "compare: perf unit spellings: $out"
fi

# compare.py -e: the events run's rates, tdtop's over its intervals, perf's over SECS
printf '%s\n' '{"type":"interval","interval_s":1.0}' '{"type":"interval","interval_s":1.0}' \
	'{"type":"process","pid":9,"counts":{"inst_retired.any":3000,"cycles:u":1000}}' \
	'{"type":"process","pid":9,"counts":{"inst_retired.any":3200,"cycles:u":1050}}' \
	'{"type":"process","pid":8,"counts":{"inst_retired.any":99999}}' >"$TMP/events.tdtop.json"
echo "9" >"$TMP/events.pid"
printf '%s\n' '# started' '' '31000,,inst_retired.any,2000000000,100.00,,' \
	'1000,,cycles:u,2000000000,100.00,,' '<not counted>,,cycles:k,0,0.00,,' \
	>"$TMP/events.perf.csv"
out=$(python3 "$HERE/compare.py" -e 10 "$TMP" alu 2>&1)
rc=$?
# tdtop: 6200 and 2050 in 2 s; perf: 31000 and 1000 in 10 s
for want in 'inst_retired.any                            3100            3100' \
	'cycles:u                                    1025             100' \
	'DIFFER: cycles:u +925.0%'; do
	if printf '%s\n' "$out" | grep -q -- "$want"; then
		echo "ok   compare -e: $want"
	else
		fail "compare -e: '$want' not in: $out"
	fi
done
if [ "$rc" = 1 ]; then
	echo "ok   compare -e: rates apart fail"
else
	fail "compare -e: exit $rc for rates apart: $out"
fi
if out=$(cd "$HERE" && PYTHONDONTWRITEBYTECODE=1 python3 -c '
import compare
assert compare.rate_differences({"a": 109.0, "b": 5.0}, {"a": 100.0}) == {}
assert list(compare.rate_differences({"a": 111.0}, {"a": 100.0})) == ["a"]
assert compare.rate_differences({"a": 0.0}, {"a": 3.0}) == {"a": None}
assert compare.rate_differences({"a": 0.0}, {"a": 0.0}) == {}
' 2>&1); then
	echo "ok   compare: rate_differences() at the limit"
else
	fail "compare: rate_differences(): $out"
fi
expect compare-bad-secs 2 "wants seconds" python3 "$HERE/compare.py" -e x "$TMP" alu

[ "$FAILS" = 0 ] && echo "all passed" || echo "$FAILS failed"
[ "$FAILS" = 0 ]
