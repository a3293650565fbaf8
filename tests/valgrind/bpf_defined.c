// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Preloaded into tdtop under valgrind (LD_PRELOAD): valgrind 3.19 does not
 * model the bpf() map batch lookups, so memcheck would take every byte the
 * kernel copied out as uninitialised and flag each use of task data in
 * tdtop's own code. This wraps syscall() and, after such a lookup, marks
 * exactly what the kernel wrote (count, out_batch, count keys and values)
 * as defined, the way valgrind's own wrappers do for the commands it knows.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <valgrind/memcheck.h>

long syscall(long nr, ...);

typedef long (*syscall_fn)(long, ...);

static long real_syscall(long nr, long a, long b, long c, long d, long e, long f)
{
	static syscall_fn real;

	if (!real)
		real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
	return real(nr, a, b, c, d, e, f);
}

static int map_info(int fd, struct bpf_map_info *info)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	memset(info, 0, sizeof(*info));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (__u64)(unsigned long)info;
	return (int)real_syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, (long)&attr, sizeof(attr), 0, 0,
				 0);
}

static void batch_written(const union bpf_attr *attr)
{
	struct bpf_map_info info;
	size_t value_size;
	long ncpus;

	VALGRIND_MAKE_MEM_DEFINED(&attr->batch.count, sizeof(attr->batch.count));
	if (map_info(attr->batch.map_fd, &info))
		return;
	value_size = info.value_size;
	if (info.type == BPF_MAP_TYPE_PERCPU_HASH || info.type == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
	    info.type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		ncpus = sysconf(_SC_NPROCESSORS_CONF);
		value_size = ((value_size + 7) & ~(size_t)7) * (size_t)(ncpus > 0 ? ncpus : 1);
	}
	/* hash maps resume from a bucket number, arrays from a key */
	if (attr->batch.out_batch)
		VALGRIND_MAKE_MEM_DEFINED((void *)(unsigned long)attr->batch.out_batch,
					  info.type == BPF_MAP_TYPE_ARRAY ? info.key_size : 4);
	if (attr->batch.keys)
		VALGRIND_MAKE_MEM_DEFINED((void *)(unsigned long)attr->batch.keys,
					  (size_t)attr->batch.count * info.key_size);
	if (attr->batch.values)
		VALGRIND_MAKE_MEM_DEFINED((void *)(unsigned long)attr->batch.values,
					  (size_t)attr->batch.count * value_size);
}

long syscall(long nr, ...)
{
	long a[6], ret;
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	ret = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	/* the kernel fills count (and that many entries) even on ENOENT */
	if (nr == __NR_bpf && (a[0] == BPF_MAP_LOOKUP_BATCH ||
			       a[0] == BPF_MAP_LOOKUP_AND_DELETE_BATCH))
		batch_written((const union bpf_attr *)a[1]);
	return ret;
}
