#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# /init of the old-kernel initramfs: probes what tdtop needs from this
# kernel, runs one tdtop smoke test around a CPU burner that execs and
# renames itself mid-run, checks the result with /check.awk and prints one
# "TDTOP-KERNEL-TEST: PASS|FAIL ..." line on the console, then powers off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /tmp /cg
mount -t tmpfs tmpfs /tmp
cd /tmp || exit 1

KREL=$(uname -r)
say() { echo "TDTOP-KERNEL: $*"; }

finish() {
	echo "TDTOP-KERNEL-TEST: $* (kernel $KREL)"
	sync
	poweroff -f
	sleep 60
}

# Everything tdtop relies on, each a symbol or BTF name that only exists
# where the feature does; printed so a failure can be matched to its cause.
probe() {
	if grep -q "$2" "$3" 2>/dev/null; then
		say "feature $1: yes"
	else
		say "feature $1: MISSING ($2 not in $3)"
		MISSING="$MISSING $1"
	fi
}

MISSING=
[ -r /sys/kernel/btf/vmlinux ] || finish "FAIL no /sys/kernel/btf/vmlinux: kernel built without CONFIG_DEBUG_INFO_BTF"
BTF=/sys/kernel/btf/vmlinux
SYMS=/proc/kallsyms
probe tp_btf/sched_switch btf_trace_sched_switch $BTF
probe tp_btf/sched_process_free btf_trace_sched_process_free $BTF
probe tp_btf/task_rename btf_trace_task_rename $BTF
probe bpf_get_current_task_btf bpf_get_current_task_btf $SYMS
probe bpf_perf_event_read_value bpf_perf_event_read_value $SYMS
probe raw_tp-test-run bpf_prog_test_run_raw_tp $SYMS
probe map-lookup-batch generic_map_lookup_batch $SYMS
probe mmapable-array array_map_mmap $SYMS
probe bpf_enable_stats bpf_stats_enabled_key $SYMS
say "ncpus $(grep -c ^processor /proc/cpuinfo), features missing:${MISSING:- none}"

# The burner: a shell that waits on a FIFO, then execs the workload, which
# renames itself: tdtop must follow the pid through both name changes.
mkfifo go
(read -r _ && exec /workload --now --name kburn burn 500) <go >wl.out 2>wl.err &
WL=$!
exec 3>go

/tdtop -b -o json -e cpu-clock,context-switches -d 0.5 -n 4 >td.json 2>td.err &
TD=$!
i=0
until grep -q '"type":"interval"' td.json; do
	kill -0 $TD 2>/dev/null || break
	i=$((i + 1))
	[ $i -gt 300 ] && break
	sleep 0.1
done
# The whole process's CPU time from here on is the truth: its threads'
# schedstat (sum_exec_runtime) now, while it waits for the go, and at the end.
cpu_ns() {
	awk '{ s += $1 } END { printf "%d\n", s }' /proc/$WL/task/*/schedstat
}
BEFORE=$(cpu_ns)
echo go >&3
wait $TD
TDRC=$?
DONE=$(grep -c '"phase":"done"' wl.out)
AFTER=$(cpu_ns)
exec 3>&-
wait $WL

if [ $TDRC -ne 0 ]; then
	say "tdtop exited with $TDRC; its stderr:"
	sed 's/^/TDTOP-KERNEL:   /' td.err
	say "again with -v (libbpf's messages, last 40 lines):"
	/tdtop -v -b -o json -e cpu-clock -d 0.2 -n 1 2>&1 >/dev/null | tail -n 40 |
		sed 's/^/TDTOP-KERNEL:   /'
	finish "FAIL tdtop exited with $TDRC${MISSING:+; missing:$MISSING}"
fi
if [ "$DONE" != 1 ]; then
	say "workload stderr: $(cat wl.err)"
	finish "FAIL the burn had not finished when tdtop's 4 intervals were over"
fi
VERDICT=$(awk -v pid=$WL -v before="$BEFORE" -v after="$AFTER" -v want=4 -v comm=kburn \
	-f /check.awk td.json)
if [ "${VERDICT%% *}" != PASS ]; then
	sed 's/^/TDJSON /' td.json
	sed 's/^/TDTOP-KERNEL:   stderr: /' td.err
fi
# --by cgroup reads the task's cgroup through CO-RE relocated fields
mount -t cgroup2 none /cg 2>/dev/null
if /tdtop -b -o json --by cgroup -e cpu-clock -d 0.3 -n 2 >cg.json 2>cg.err; then
	say "by cgroup: $(grep -c '"type":"cgroup"' cg.json) cgroup rows"
	CG=$(awk -v want=2 -f /check.awk cg.json)
	[ "${CG%% *}" = PASS ] || VERDICT="FAIL --by cgroup: $CG"
else
	sed 's/^/TDTOP-KERNEL:   stderr: /' cg.err
	VERDICT="FAIL --by cgroup exited with an error"
fi
# context-switches could be read from memory, with bpf_rdonly_cast() (6.2+):
# without it, tdtop must fall back to the helper program, and say so with -v
if grep -q bpf_rdonly_cast $SYMS; then
	say "reads from memory: available"
elif /tdtop -v -b -o json -e context-switches -d 0.2 -n 1 2>&1 >/dev/null |
	grep -q 'reading counts from memory refused'; then
	say "reads from memory: refused, helper fallback taken"
else
	VERDICT="FAIL no bpf_rdonly_cast here, yet tdtop did not report its fallback"
fi
[ -s td.err ] && VERDICT="FAIL tdtop wrote to stderr: $(head -n 1 td.err)"
finish "$VERDICT"
