#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Regenerate the per-architecture vmlinux.h headers the BPF program is built against, then check
# that each still declares what bpf/tdtop.bpf.c uses and that the program compiles with it.
#
# Usage (from anywhere; paths are relative to the repository):
#   vmlinux/update.sh x86 [-v X.Y] [SOURCE]   SOURCE defaults to /sys/kernel/btf/vmlinux
#   vmlinux/update.sh arm64 [-v X.Y] SOURCE
#   vmlinux/update.sh check [ARCH...]         only the checks (default: every vmlinux/*/vmlinux.h)
#
# SOURCE is one of: a Debian linux-image .deb (signed or -unsigned), the vmlinuz inside one, any
# kernel image or ELF vmlinux built with CONFIG_DEBUG_INFO_BTF, or a bare BTF file.
# The result is vmlinux/ARCH/vmlinux_XY.h (XY = kernel major and minor, e.g. 61 for 6.1) and the
# symlink vmlinux/ARCH/vmlinux.h pointing at it. The kernel version is read from the image's
# banner (or `uname -r` for /sys/kernel/btf/vmlinux); a bare BTF file needs -v X.Y.
#
# Getting an arm64 Debian kernel on an amd64 machine (see vmlinux/README.md):
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get download "$(apt-cache depends linux-image-arm64:arm64 | awk '/Depends:/{print $2}')"
#   dpkg --remove-architecture arm64 && apt-get update
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BPFTOOL=${BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}
CLANG=${CLANG:-clang}
SYS_BTF=/sys/kernel/btf/vmlinux

die() {
	echo "update.sh: $*" >&2
	exit 1
}

usage() {
	sed -n '/^# Usage/,/^# SOURCE/p' "$0" | sed -e 's/^# \{0,1\}//' -e '$d' >&2
	exit 2
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# "6.1.0-57-arm64" -> "61": one header per major.minor, as the x86 one is named.
version_tag() {
	local v=$1
	[[ $v =~ ^([0-9]+)\.([0-9]+)([^0-9]|$) ]] || die "failed to parse kernel version '$v'"
	echo "${BASH_REMATCH[1]}${BASH_REMATCH[2]}"
}

# Unpack only /boot/vmlinuz-* from a .deb: the modules are hundreds of MiB we do not need.
deb_vmlinuz() {
	local deb=$1 want=$2 arch pkg ver img
	command -v dpkg-deb >/dev/null || die "failed to read $deb: dpkg-deb is not installed"
	pkg=$(dpkg-deb -f "$deb" Package) || die "failed to read $deb: not a Debian package"
	ver=$(dpkg-deb -f "$deb" Version)
	arch=$(dpkg-deb -f "$deb" Architecture)
	[[ $arch == "$want" ]] || die "failed to use $deb: it is for $arch, not $want"
	mkdir -p "$TMP/deb"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$TMP/deb" --wildcards './boot/vmlinuz-*' \
		2>/dev/null || die "failed to extract /boot/vmlinuz-* from $deb"
	img=$(find "$TMP/deb/boot" -name 'vmlinuz-*' -type f | head -n 1)
	[[ -n $img ]] || die "failed to find /boot/vmlinuz-* in $deb"
	echo "source: $pkg $ver ($arch)" >&2
	echo "$img"
}

# Sanity marks of each architecture's BTF, so an amd64 image cannot land in arm64/.
arch_mark() {
	case $1 in
	x86) grep -q '^struct pt_regs {' "$2" && grep -q '	long unsigned int r15;' "$2" ;;
	arm64) grep -q '^struct user_pt_regs {' "$2" ;;
	*) return 1 ;;
	esac
}

# Members of struct task_struct that tdtop reads, and the other types it needs.
check_types() {
	local hdr=$1 m body
	body=$(awk '/^struct task_struct {$/{f=1} f{print} f&&/^};$/{exit}' "$hdr")
	[[ -n $body ]] || die "failed to check $hdr: no struct task_struct"
	for m in start_time group_leader tgid pid flags; do
		grep -Eq "[ *]$m;$" <<<"$body" || die "failed to check $hdr: task_struct has no $m"
	done
	grep -Eq 'char comm\[[0-9]+\];' <<<"$body" || die "failed to check $hdr: task_struct has no comm"
	grep -q '^struct bpf_perf_event_value {' "$hdr" ||
		die "failed to check $hdr: no struct bpf_perf_event_value"
}

# Build the BPF object the way the Makefile does, but against ARCH's header.
check_compile() {
	local arch=$1 obj=$TMP/tdtop-$1.bpf.o
	command -v "$CLANG" >/dev/null || die "failed to compile for $arch: $CLANG is not installed"
	"$CLANG" -g -O2 -target bpf -mcpu=v3 -Wall -Werror=undef -D__TARGET_ARCH_"$arch" \
		-I"$ROOT/vmlinux/$arch" -I"$ROOT/src" -c "$ROOT/bpf/tdtop.bpf.c" -o "$obj.tmp" ||
		die "failed to compile bpf/tdtop.bpf.c against vmlinux/$arch/vmlinux.h"
	"$BPFTOOL" gen object "$obj" "$obj.tmp" ||
		die "failed to link the $arch BPF object with bpftool gen object"
}

check() {
	local arch=$1 hdr=$ROOT/vmlinux/$1/vmlinux.h
	[[ -e $hdr ]] || die "failed to check $arch: no vmlinux/$arch/vmlinux.h"
	arch_mark "$arch" "$hdr" || die "failed to check $hdr: it does not look like $arch BTF"
	check_types "$hdr"
	check_compile "$arch"
	echo "check: vmlinux/$arch/vmlinux.h -> $(readlink "$hdr" || echo "$hdr"): ok"
}

generate() {
	local arch=$1 src=$2 ver=$3 btf=$TMP/vmlinux.btf rel tag dir name old
	[[ -r $src ]] || die "failed to read $src: no such file or not readable"
	case $src in
	*.deb) src=$(deb_vmlinuz "$src" "$([[ $arch == x86 ]] && echo amd64 || echo "$arch")") ;;
	esac
	rel=$(python3 "$HERE/btf_extract.py" "$src" "$btf") || die "failed to extract BTF from $src"
	[[ $src == "$SYS_BTF" && -z $rel ]] && rel=$(uname -r)
	[[ -n $ver ]] || ver=$rel
	[[ -n $ver ]] || die "failed to find the kernel version of $src: pass -v X.Y"
	echo "kernel: ${rel:-unknown}" >&2
	tag=$(version_tag "$ver")
	dir=$ROOT/vmlinux/$arch
	name=vmlinux_$tag.h
	mkdir -p "$dir"
	"$BPFTOOL" btf dump file "$btf" format c >"$TMP/$name" ||
		die "failed to dump BTF from $src with $BPFTOOL"
	arch_mark "$arch" "$TMP/$name" || die "failed to use $src: its BTF is not $arch"
	check_types "$TMP/$name"
	mv "$TMP/$name" "$dir/$name"
	ln -sfn "$name" "$dir/vmlinux.h"
	echo "wrote vmlinux/$arch/$name ($(wc -c <"$dir/$name") bytes)"
	for old in "$dir"/vmlinux_*.h; do
		[[ $old == "$dir/$name" ]] || echo "note: $(basename "$old") is no longer used" >&2
	done
	check "$arch"
}

[[ $# -ge 1 ]] || usage
cmd=$1
shift
case $cmd in
x86 | arm64)
	ver=
	if [[ ${1:-} == -v ]]; then
		[[ $# -ge 2 ]] || usage
		ver=$2
		shift 2
	fi
	[[ $# -le 1 ]] || usage
	src=${1:-}
	if [[ -z $src ]]; then
		[[ $cmd == x86 && $(uname -m) == x86_64 ]] || usage
		src=$SYS_BTF
	fi
	generate "$cmd" "$src" "$ver"
	;;
check)
	if [[ $# -eq 0 ]]; then
		for h in "$ROOT"/vmlinux/*/vmlinux.h; do
			[[ -e $h ]] && set -- "$@" "$(basename "$(dirname "$h")")"
		done
	fi
	[[ $# -gt 0 ]] || die "failed to check: no vmlinux/*/vmlinux.h"
	for a in "$@"; do
		check "$a"
	done
	;;
*)
	usage
	;;
esac
