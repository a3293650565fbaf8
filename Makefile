# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
#   make            build ./tdtop and its man page (.output/tdtop.8)
#   make install    install tdtop, tdtop(8), bash and zsh completion and the docs
#                   under PREFIX (/usr/local), staged under DESTDIR if given;
#                   make uninstall removes them again
#   make test       every suite: unit, integration (root, BPF), sanitizer build,
#                   fuzzing, tools, an older kernel under qemu (SUITES=... to pick)
#   make test-unit  only the unit tests
#   make SAN=1 ...  the same with AddressSanitizer + UBSan (./tdtop-san)
#   ./make.sh TARGET  the same after installing missing Debian packages

CC ?= cc
CLANG ?= clang
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)

ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ifeq ($(wildcard vmlinux/$(ARCH)/vmlinux.h),)
$(error Architecture $(ARCH) is not supported: no vmlinux/$(ARCH)/vmlinux.h)
endif

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

# Where make install puts things. The binary goes to bin, not sbin: report,
# --list and --help need no privileges, so users' PATHs should find it, and
# deploy/ runs /usr/local/bin/tdtop. Measuring needs root, hence tdtop(8).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/tdtop
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
INSTALL ?= install
MAN := .output/tdtop.8
# the documentation, with the paths the README links to
DOC_FILES := README.md LICENSE $(wildcard LICENSES/* docs/*.md docs/screenshots/*) \
	$(filter-out %/kubernetes,$(wildcard deploy/*)) $(wildcard deploy/kubernetes/*)

ifeq ($(SAN),1)
OUT := .output/san
BIN := tdtop-san
SANFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
else
OUT := .output/std
BIN := tdtop
SANFLAGS := -O2 -g
endif

WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wwrite-strings -Wno-unused-parameter
CFLAGS ?=
CFLAGS += $(SANFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -DTDTOP_VERSION='"$(VERSION)"' \
	-I$(OUT) -Isrc -Ibpf -MMD -MP
# libbpf needs libelf and zlib; zlib also compresses recordings; GnuTLS is the
# exporter's TLS, libyaml reads its web configuration, libcrypt checks bcrypt;
# libpfm4 has the vendor event tables (-e inst_retired.any)
LIB_LDLIBS := -lpfm -ljansson -lncursesw -lgnutls -lyaml -lcrypt -lz -lm
LDLIBS := -lbpf -lelf $(LIB_LDLIBS)
# STATIC=1: one self-contained binary, e.g. for booting other kernels in qemu
ifeq ($(STATIC),1)
LDFLAGS += -static
LDLIBS += -ltinfo
endif

BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -Wall -Werror=undef -D__TARGET_ARCH_$(ARCH) \
	-Ivmlinux/$(ARCH) -Ibpf

# Files that talk to the kernel through the BPF skeleton, and the commands;
# everything else is pure and linked into the unit tests too.
KERNEL_SRCS := src/measure/collector.c src/measure/live.c src/startup.c src/main.c \
	$(wildcard src/cmd_*.c)
LIB_SRCS := $(filter-out $(KERNEL_SRCS),$(wildcard src/*.c src/*/*.c))
LIB_OBJS := $(LIB_SRCS:src/%.c=$(OUT)/%.o)
# ar keeps members by file name: two sources with one name would drop one
DUP_NAMES := $(shell printf '%s\n' $(notdir $(LIB_SRCS)) | sort | uniq -d)
ifneq ($(DUP_NAMES),)
$(error Two sources in src/ share a file name: $(DUP_NAMES))
endif
KERNEL_OBJS := $(KERNEL_SRCS:src/%.c=$(OUT)/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(OUT)/unit/%.o)
HELPER_SRCS := $(wildcard tests/helpers/*.c)
HELPERS := $(HELPER_SRCS:tests/helpers/%.c=$(OUT)/helpers/%)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.PHONY: all clean test test-unit test-integration run helpers bench man install uninstall
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BIN) man

$(OUT) $(OUT)/unit $(OUT)/helpers:
	$(Q)mkdir -p $@

# bpf_obj/bpf_skel: compile a BPF program and link it (bpftool gen object
# resolves CO-RE and the .BTF), and generate its skeleton named $(1).
define bpf_obj
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp
	$(Q)rm -f $@.tmp
endef
define bpf_skel
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(1) > $@
endef

$(OUT)/tdtop.bpf.o: bpf/tdtop.bpf.c bpf/tdtop_abi.h | $(OUT)
	$(bpf_obj)

$(OUT)/tdtop.skel.h: $(OUT)/tdtop.bpf.o
	$(call bpf_skel,tdtop_bpf)

$(KERNEL_OBJS): $(OUT)/tdtop.skel.h

$(OUT)/%.o: src/%.c | $(OUT)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# made anew each time: ar would keep the members of deleted sources
$(OUT)/libtdtop.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BIN): $(KERNEL_OBJS) $(OUT)/libtdtop.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(OUT)/unit/%.o: tests/unit/%.c | $(OUT)/unit
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Itests/unit -c $< -o $@

$(OUT)/unit/run: $(UNIT_OBJS) $(OUT)/libtdtop.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LIB_LDLIBS) -o $@

$(OUT)/helpers/%: tests/helpers/%.c | $(OUT)/helpers
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< -lpthread -o $@

# tests/bpf/member_reads: the switch program's member loads on a software event
$(OUT)/helpers/member_reads.bpf.o: tests/bpf/member_reads.bpf.c bpf/tdtop.bpf.c bpf/tdtop_abi.h | $(OUT)/helpers
	$(bpf_obj)

$(OUT)/helpers/member_reads.skel.h: $(OUT)/helpers/member_reads.bpf.o
	$(call bpf_skel,member_reads_bpf)

$(OUT)/helpers/member_reads: tests/bpf/member_reads.c $(OUT)/helpers/member_reads.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -I$(OUT)/helpers $< -lbpf -lelf -o $@

helpers: $(HELPERS) $(OUT)/helpers/member_reads

man: $(MAN)

$(MAN): docs/tdtop.8.in VERSION
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)sed 's/@VERSION@/$(VERSION)/g' $< > $@

install: $(BIN) $(MAN)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)$(INSTALL) -D -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/tdtop
	$(Q)$(INSTALL) -D -m 0644 $(MAN) $(DESTDIR)$(MANDIR)/man8/tdtop.8
	$(Q)$(INSTALL) -D -m 0644 completions/tdtop.bash $(DESTDIR)$(BASHCOMPDIR)/tdtop
	$(Q)$(INSTALL) -D -m 0644 completions/_tdtop $(DESTDIR)$(ZSHCOMPDIR)/_tdtop
	$(Q)for f in $(DOC_FILES); do \
		$(INSTALL) -D -m 0644 "$$f" "$(DESTDIR)$(DOCDIR)/$$f" || exit 1; \
	done

uninstall:
	$(call msg,UNINSTALL,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(DESTDIR)$(BINDIR)/tdtop $(DESTDIR)$(MANDIR)/man8/tdtop.8 \
		$(DESTDIR)$(BASHCOMPDIR)/tdtop $(DESTDIR)$(ZSHCOMPDIR)/_tdtop
	$(Q)rm -rf $(DESTDIR)$(DOCDIR)

# bench/charge_cost: the switch program's parts, timed in a hot loop
$(OUT)/bench:
	$(Q)mkdir -p $@

$(OUT)/bench/charge_cost.bpf.o: bench/charge_cost.bpf.c bpf/tdtop.bpf.c bpf/tdtop_abi.h | $(OUT)/bench
	$(bpf_obj)

$(OUT)/bench/charge_cost.skel.h: $(OUT)/bench/charge_cost.bpf.o
	$(call bpf_skel,charge_cost_bpf)

$(OUT)/bench/charge_cost: bench/charge_cost.c $(OUT)/bench/charge_cost.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -I$(OUT)/bench $< -lbpf -lelf -o $@

bench: $(BIN) helpers $(OUT)/bench/charge_cost

test-unit: $(OUT)/unit/run
	$(Q)cd tests/unit && ../../$(OUT)/unit/run

test-integration: $(BIN) helpers
	$(Q)TDTOP=$(CURDIR)/$(BIN) HELPERS=$(CURDIR)/$(OUT)/helpers tests/integration/run.py

# Everything, the sanitizer build included: what CI runs.
test: all helpers $(OUT)/unit/run
	$(Q)$(MAKE) --no-print-directory SAN=1 all .output/san/unit/run
	$(Q)TDTOP=$(CURDIR)/tdtop TDTOP_SAN=$(CURDIR)/tdtop-san \
		HELPERS=$(CURDIR)/$(OUT)/helpers UNIT=$(CURDIR)/$(OUT)/unit/run \
		UNIT_SAN=$(CURDIR)/.output/san/unit/run tests/run $(SUITES)

run: $(BIN)
	$(Q)./$(BIN) $(ARGS)

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf .output tdtop tdtop-san

-include $(wildcard $(OUT)/*.d $(OUT)/*/*.d)
