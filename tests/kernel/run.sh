#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Old-kernel test: boots Debian 12's 6.1 kernel under qemu (software
# emulation) with an initramfs holding busybox, a static tdtop (or, when the
# static link fails, tdtop with its shared libraries) and the static workload
# helper, and runs tests/kernel/init.sh there: feature probes, a
# smoke test checked against the workload's own CPU time and conservation,
# and a --by cgroup run. Installs what it needs (qemu-system-x86,
# busybox-static, cpio); downloads are cached in $KERNEL_CACHE.
#   sudo tests/kernel/run.sh            PASS/FAIL line, then "N passed, N failed"
# Environment: KERNEL_PKG (default: the newest linux-image-6.1.0-*-amd64),
#   KERNEL_CACHE (/var/cache/tdtop-kernel-test), QEMU_TIMEOUT (seconds, 120).
set -u
cd "$(dirname "$0")/../.."
TOP=$PWD

CACHE=${KERNEL_CACHE:-/var/cache/tdtop-kernel-test}
TIMEOUT=${QEMU_TIMEOUT:-120}
BUSYBOX=/bin/busybox

fail() {
	echo "FAIL kernel: $*"
	echo "0 passed, 1 failed"
	exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (apt-get, the cache directory)"
[ "$(uname -m)" = x86_64 ] || fail "needs an x86_64 host (runs an amd64 kernel)"

have_pkg() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

need=
for p in qemu-system-x86 busybox-static cpio gzip; do
	have_pkg "$p" || need="$need $p"
done
if [ -n "$need" ]; then
	echo "installing$need"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends $need; } \
		>/dev/null 2>&1 || fail "could not install$need"
fi
# busybox-static replaces the dynamic busybox: the one in the initramfs must be static
file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$BUSYBOX" 2>&1 | grep -q 'not a dynamic executable' ||
	fail "$BUSYBOX is not statically linked (install busybox-static)"

mkdir -p "$CACHE" || fail "cannot create $CACHE"
cd "$CACHE" || fail "cannot enter $CACHE"

latest_pkg() {
	apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' 2>/dev/null |
		awk '{ print $1 }' | sort -V | tail -n 1
}

pkg=${KERNEL_PKG:-$(latest_pkg)}
if [ -z "$pkg" ]; then
	apt-get update -qq >/dev/null 2>&1
	pkg=$(latest_pkg)
fi
if [ -z "$pkg" ]; then
	# offline: the newest package downloaded earlier
	deb=$(ls linux-image-6.1.0-*-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
	[ -n "$deb" ] || fail "no linux-image-6.1.0-*-amd64 package known to apt and none cached"
	pkg=${deb%%_*}
fi
deb=$(ls "${pkg}"_*.deb 2>/dev/null | sort -V | tail -n 1)
if [ -z "$deb" ]; then
	echo "downloading $pkg"
	# apt's sandbox user may not write here: that only costs a warning
	apt-get download -q "$pkg" >/dev/null 2>&1 || fail "apt-get download $pkg failed"
	deb=$(ls "${pkg}"_*.deb 2>/dev/null | sort -V | tail -n 1)
	[ -n "$deb" ] || fail "apt-get download $pkg left no .deb in $CACHE"
fi
kdir=$CACHE/${deb%.deb}
if [ ! -s "$kdir/vmlinuz" ]; then
	rm -rf "$kdir.tmp" && mkdir -p "$kdir.tmp" || fail "cannot write $kdir.tmp"
	dpkg-deb -x "$deb" "$kdir.tmp/x" || fail "dpkg-deb -x $deb failed"
	vmlinuz=$(ls "$kdir.tmp"/x/boot/vmlinuz-* 2>/dev/null | head -n 1)
	[ -n "$vmlinuz" ] || fail "no /boot/vmlinuz-* in $deb"
	mv "$vmlinuz" "$kdir.tmp/vmlinuz" && rm -rf "$kdir.tmp/x" && rm -rf "$kdir" &&
		mv "$kdir.tmp" "$kdir" || fail "cannot unpack into $kdir"
fi
cd "$TOP" || exit 1

work=$(mktemp -d /tmp/tdtop-kernel.XXXXXX) || fail "mktemp failed"
qemu_pid=
cleanup() {
	[ -n "$qemu_pid" ] && kill -9 "$qemu_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

root=$work/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp} || fail "mkdir failed"

# A static tdtop: the initramfs has no libraries. Should the static link
# break, the normal build goes in with the shared libraries it loads, so
# the kernel is still tested (and the broken static build is reported).
if ! make -s STATIC=1 BIN="$work/tdtop" OUT=.output/static "$work/tdtop" \
	>"$work/build.log" 2>&1; then
	echo "warning: the static build failed ($(grep -m 1 -E 'error|undefined' "$work/build.log"));" \
		"using ./tdtop with its shared libraries"
	make -s tdtop >>"$work/build.log" 2>&1 || { tail -n 20 "$work/build.log"; fail "build failed"; }
	cp tdtop "$work/tdtop" || fail "cannot copy ./tdtop"
	for lib in $(ldd tdtop | grep -o '/[^ ]*'); do
		cp --parents -L "$lib" "$root/" || fail "cannot copy $lib"
	done
fi
${CC:-cc} -O2 -static tests/helpers/workload.c -lpthread -o "$work/workload" \
	>>"$work/build.log" 2>&1 || { tail -n 20 "$work/build.log"; fail "static workload failed"; }

cp "$BUSYBOX" "$root/bin/busybox" && cp "$work/tdtop" "$work/workload" "$root/" &&
	cp tests/kernel/init.sh "$root/init" && cp tests/kernel/check.awk "$root/check.awk" &&
	chmod 755 "$root/init" || fail "cannot fill the initramfs"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.gz" ||
	fail "cpio failed"

log=$CACHE/console.log
echo "booting ${kdir##*/} under qemu (software emulation, ${TIMEOUT} s at most)"
start=$(date +%s.%N)
# No -enable-kvm: nested KVM hangs on this kind of VM; TCG boots in seconds.
# loglevel=5 rather than quiet: a lockup or warning comes with its stack
# trace in the console log.
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 -smp 2 -m 1024 -nographic -no-reboot \
	-kernel "$kdir/vmlinuz" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 loglevel=5 panic=-1" </dev/null >"$log" 2>&1 &
qemu_pid=$!
wait "$qemu_pid"
rc=$?
qemu_pid=
took=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")

tr -d '\r' <"$log" | grep -a -o 'TDTOP-KERNEL.*' | grep -v 'feature .*: yes'
result=$(tr -d '\r' <"$log" | grep -a -o 'TDTOP-KERNEL-TEST: .*' | tail -n 1)
result=${result#TDTOP-KERNEL-TEST: }
if [ -z "$result" ]; then
	[ "$rc" -eq 124 ] && why="no result within ${TIMEOUT} s" || why="qemu exited with $rc"
	tr -d '\r' <"$log" | tail -n 30
	fail "$why and no result line (console log: $log)"
fi
case $result in
PASS*)
	echo "ok   kernel ${kdir##*/}: ${result#PASS } (${took%.*} s)"
	echo "1 passed, 0 failed"
	;;
*)
	tr -d '\r' <"$log" | grep -a -o 'TDJSON .*' | head -n 40
	echo "FAIL kernel ${kdir##*/}: ${result#FAIL } (console log: $log)"
	echo "0 passed, 1 failed"
	exit 1
	;;
esac
