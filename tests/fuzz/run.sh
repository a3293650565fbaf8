#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Builds the recording-reader fuzzer (clang libFuzzer + ASan + UBSan) and runs
# it briefly on a scratch copy of the committed corpus. Prints one line; exits
# 1 on a crash or broken promise, 2 when it cannot build.
#   tests/fuzz/run.sh [SECONDS]     (default 20)
set -u
cd "$(dirname "$0")/../.."

secs=${1:-20}
clang=${CLANG:-clang}
out=.output/fuzz
srcs="src/util/errmsg.c src/util/format.c src/util/grow.c src/util/json.c src/util/keyindex.c
      src/record/cgroup_table.c src/record/codec.c src/record/header.c src/record/read.c
      src/record/source.c src/record/write.c src/rows/sample.c src/pmu/topdown.c"
mkdir -p "$out"

# shellcheck disable=SC2086
if ! "$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-std=gnu11 -D_GNU_SOURCE -DTDTOP_VERSION='"fuzz"' -Isrc -Ibpf \
	tests/fuzz/fuzz_record.c $srcs -ljansson -lz -lm -o "$out/fuzz_record" \
	>"$out/fuzz_record.build.log" 2>&1; then
	echo "FAIL fuzz_record: build failed, see $out/fuzz_record.build.log"
	exit 2
fi

# libFuzzer adds what it finds to the first corpus directory: not the repo's
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp tests/fuzz/corpus/record/* "$work/"

log=$out/fuzz_record.log
"$out/fuzz_record" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-dict=tests/fuzz/record.dict -artifact_prefix="$out/" -print_final_stats=1 \
	"$work" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ "$rc" -ne 0 ]; then
	echo "FAIL fuzz_record: exit $rc after ${runs:-?} runs, see $log and $out/crash-*"
	exit 1
fi
echo "ok   fuzz_record: ${runs:-?} runs in ${secs} s, no crash"
