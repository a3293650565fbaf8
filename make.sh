#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Installs what tdtop needs from Debian (apt-get, only what is missing) and
# runs make with the given targets. As root (a fresh Debian has no sudo), or
# with sudo in front:
#   ./make.sh run           build and start tdtop (extra options: ARGS="...")
#   ./make.sh install       build and install it (PREFIX=..., DESTDIR=...)
#   ./make.sh test          build and run the whole test suite
#   ./make.sh deps          only install the packages
set -eu
cd "$(dirname "$0")"

BUILD_PKGS="make gcc libc6-dev clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev \
	libjansson-dev libncurses-dev libgnutls28-dev libyaml-dev libcrypt-dev libpfm4-dev pkg-config"
TEST_PKGS="python3 procps util-linux linux-perf tmux libclang-rt-14-dev valgrind \
	qemu-system-x86 busybox-static cpio prometheus groff-base zsh"

missing() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			printf '%s ' "$p"
	done
}

install() {
	need=$(missing "$@")
	[ -z "$need" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "make.sh: missing packages: $need(run as root to install them)" >&2
		exit 1
	fi
	echo "make.sh: installing $need"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $need >/dev/null
}

case " $* " in
*" test"*) install $BUILD_PKGS $TEST_PKGS ;;
*) install $BUILD_PKGS ;;
esac
[ "$*" = deps ] && exit 0
exec make "$@"
