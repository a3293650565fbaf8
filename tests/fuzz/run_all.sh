#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Builds every libFuzzer target tests/fuzz/fuzz_*.c except fuzz_record.c
# (tests/fuzz/run.sh runs that one) with clang, ASan and UBSan against the
# project's pure sources, and runs each for SECONDS on a scratch copy of its
# committed corpus tests/fuzz/corpus/<name>/. One line per target, then
# "N passed, N failed". Exits 1 on a crash or broken promise (the input is
# kept in .output/fuzz-all/), 2 when something cannot be built.
#   tests/fuzz/run_all.sh [SECONDS]     (default 10)
set -u
cd "$(dirname "$0")/../.."

secs=${1:-10}
case $secs in
'' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
clang=${CLANG:-clang}
out=.output/fuzz-all
obj=$out/obj
san=(-fsanitize=address,undefined -fno-sanitize-recover=all)
cflags=(-g -O1 -std=gnu11 -D_GNU_SOURCE '-DTDTOP_VERSION="fuzz"' -Isrc -Ibpf)
# the sources that talk to the kernel, and main, are not parsers
kernel="src/measure/collector.c src/measure/live.c src/startup.c src/main.c $(echo src/cmd_*.c)"
mkdir -p "$obj"

command -v "$clang" >/dev/null || { echo "FAIL fuzz: $clang not found"; exit 2; }

# Compile a source when it or any header is newer than its object, a few
# at a time.
newest_header=$(ls -t src/*.h src/*/*.h bpf/*.h | head -n 1)
objs=()
pids=()
: >"$out/build.log"
for src in src/*.c src/*/*.c; do
	case " $kernel " in *" $src "*) continue ;; esac
	o=$obj/$(basename "${src%.c}").o
	objs+=("$o")
	if [ ! -e "$o" ] || [ "$src" -nt "$o" ] || [ "$newest_header" -nt "$o" ]; then
		"$clang" "${cflags[@]}" "${san[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$o" \
			>>"$out/build.log" 2>&1 &
		pids+=($!)
		if [ ${#pids[@]} -ge "$(nproc)" ]; then
			wait "${pids[0]}" || build_failed=1
			pids=("${pids[@]:1}")
		fi
	fi
done
for p in "${pids[@]}"; do
	wait "$p" || build_failed=1
done
if [ -n "${build_failed:-}" ]; then
	rm -f "${objs[@]}"
	echo "FAIL fuzz: the sources do not build, see $out/build.log"
	exit 2
fi
# an archive: each target links only the objects it uses
lib=$out/libtdtop-fuzz.a
rm -f "$lib"
ar rcs "$lib" "${objs[@]}" || { echo "FAIL fuzz: ar failed"; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "${src%.c}")
	[ "$name" = fuzz_record ] && continue
	bin=$out/$name
	if ! "$clang" "${cflags[@]}" "${san[@]}" -fsanitize=fuzzer "$src" "$lib" \
		-lpfm -ljansson -lncursesw -lz -lm -o "$bin" >"$out/$name.build.log" 2>&1; then
		echo "FAIL $name: build failed, see $out/$name.build.log"
		failed=$((failed + 1))
		continue
	fi
	corpus=tests/fuzz/corpus/${name#fuzz_}
	mkdir -p "$work/$name" "$work/tmp-$name"
	[ -d "$corpus" ] && cp "$corpus"/* "$work/$name/" 2>/dev/null
	log=$out/$name.log
	rm -f "$out/$name"-crash-* "$out/$name"-leak-* "$out/$name"-timeout-* "$out/$name"-oom-*
	# libFuzzer adds what it finds to the first corpus directory: the scratch copy
	TMPDIR=$work/tmp-$name "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=4096 -artifact_prefix="$out/$name-" -print_final_stats=1 \
		"$work/$name" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" -ne 0 ]; then
		why=$(grep -m 1 -E 'broken promise|does not parse again|^SUMMARY|ERROR: libFuzzer' \
			"$log")
		saved=$(ls "$out/$name"-* 2>/dev/null | grep -v -E '\.log$' | grep -v "^$bin\$" |
			head -n 1)
		echo "FAIL $name: exit $rc after ${runs:-?} runs: ${why:-see $log}${saved:+ (input: $saved)}"
		failed=$((failed + 1))
		continue
	fi
	echo "ok   $name: ${runs:-?} runs in $secs s, no crash"
	passed=$((passed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
