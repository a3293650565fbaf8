// SPDX-License-Identifier: GPL-2.0
/*
 * tdtop kernel side: at every context switch, read this CPU's counters and
 * charge what they advanced since the previous switch to the task that is
 * leaving the CPU. One set of per-CPU counters serves every task. The
 * other programs keep each entry's identity and name right across exit,
 * exec and rename, and let the loader charge the slices still running.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "tdtop_abi.h"

#define PF_IDLE 0x00000002
#define TASK_DEAD 0x00000080
#define ENOENT 2
#define ENODATA 61

/* task_struct.state became __state in 5.14. */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

/* Set by the loader before load. */
const volatile __u32 nr_cpus = 1;	/* stride of the counters array */
const volatile __u32 nr_counters = 0;	/* its size */
const volatile bool by_cgroup = false;	/* key tasks by cgroup too */
/* Events the kernel never multiplexes (software ones): their enabled and
 * running times are the slice itself, so the cheaper read without them
 * serves. Bit i for event i. */
const volatile __u32 always_on = 0;
/* Of those, the events whose count the kernel bumps in place (faults,
 * context switches, migrations): on_switch_mem loads them from struct
 * perf_event. Bit i for event i. */
const volatile __u32 in_memory = 0;
/*
 * Group members whose count the helper read of their leader
 * (member_leader[i]) brings up to date in memory: the metrics of a
 * PERF_METRICS group, all of which the driver updates at any read of one
 * TopDown event of the CPU. on_switch_mem loads them after that read,
 * with the leader's enabled and running times. Bit i for event i; the
 * loader fills both from its read plan (pmu/readplan.h).
 */
const volatile __u32 group_member = 0;
const volatile __u32 member_leader[MAX_EVENTS] = {};
/* The index of a cpu-clock event, or MAX_EVENTS: its count on a CPU is
 * that CPU's time, so a CPU that reads it times its slices with it and
 * saves a clock read per switch (clock reads are among the dearest parts
 * of a switch in a VM). */
const volatile __u32 clock_event = MAX_EVENTS;

/* 6.2+; only on_switch_mem calls it, and the loader loads that program
 * only where the kernel has it. */
extern void *bpf_rdonly_cast(const void *obj__ign, __u32 btf_id__k) __ksym __weak;

/* Which half of every accumulator to charge; flipped by the loader. */
__u32 epoch;
/* The counters map's kernel address, as a plain number: the verifier
 * forbids arithmetic on a map pointer, not on a value loaded from here. */
__u64 counters_addr;

/* Perf event fds, key = event index * nr_cpus + cpu. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} counters SEC(".maps");

/* Each CPU's readings and sums (see struct cpu_state). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

/* Cumulative charges per task; capacity set by the loader (--max-tasks). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, struct task_key);
	__type(value, struct task_val);
} tasks SEC(".maps");

/*
 * The key each task's entry was made under. The end of a task is marked
 * through it, not through the task's current identity: a thread that
 * execs takes over its leader's pid and start time (de_thread), and a task
 * may have changed cgroup.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_key);
} task_keys SEC(".maps");

/* Change lists, index cpu * 2 + half (see struct change_list); sized by
 * the loader, which maps them into its memory. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct change_list);
} changes SEC(".maps");

/* A zeroed task_val to insert from: too large for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct task_val);
} scratch SEC(".maps");

static __always_inline struct cpu_state *this_cpu(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_states, &zero);
}

/* Where the cgroup comes from depends on whether p is current: that field
 * is the caller's. */
static __always_inline void task_key__init(struct task_struct *p, struct task_key *key)
{
	__builtin_memset(key, 0, sizeof(*key));
	key->tid = p->pid;
	key->start_ns = p->start_time;
}

/* The key of p's entry as of now; p's cgroup read from the task, since p
 * need not be current. */
static __always_inline void current_key(struct task_struct *p, struct task_key *key)
{
	task_key__init(p, key);
	if (by_cgroup)
		key->cgroup_id = p->cgroups->dfl_cgrp->kn->id;
}

static __always_inline void remember_key(struct task_struct *p, const struct task_key *key)
{
	struct task_key *k = bpf_task_storage_get(&task_keys, p, 0,
						  BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (k)
		*k = *key;
}

/*
 * Put the entry of *key* on this CPU's change list of epoch ep. Atomic:
 * the free and exec programs run in contexts the flush's interrupt can
 * cut into.
 */
static __always_inline void list_change(const struct task_key *key, __u32 ep)
{
	__u32 idx = bpf_get_smp_processor_id() * 2 + (ep & 1);
	struct change_list *l = bpf_map_lookup_elem(&changes, &idx);
	__u32 slot;

	if (!l)
		return;
	slot = __sync_fetch_and_add(&l->nr, 1);
	if (slot < CHANGE_LIST_LEN)
		l->keys[slot] = *key;
}

/* On the loader's clock, whatever times the slices: the loader compares
 * exit_ns with the times it flipped the epoch. */
static __always_inline void task_val__end(struct task_val *v)
{
	v->exit_ns = bpf_ktime_get_ns();
	v->exited = 1;
}

/* Mark the entry made under *key* final as of now; the first mark (the
 * last switch-out) wins over a late free. */
static __always_inline void mark_ended(const struct task_key *key)
{
	struct task_val *v = bpf_map_lookup_elem(&tasks, key);
	__u32 ep = epoch;

	if (v && !v->exited) {
		task_val__end(v);
		v->listed_epoch = ep + 1;
		list_change(key, ep);
	}
}

/* What an entry says about its task besides the sums, as of first sight. */
static __always_inline void task_val__init(struct task_val *v, struct task_struct *p)
{
	v->pid = p->tgid;
	v->leader_start_ns = p->group_leader->start_time;
	bpf_probe_read_kernel(v->comm, TASK_COMM_LEN, p->comm);
	bpf_probe_read_kernel(v->pcomm, TASK_COMM_LEN, p->group_leader->comm);
}

/* The task's accumulator and its *key*, created on first sight; NULL when
 * the map is full. p is current here, so the helper gives its cgroup. */
static __always_inline struct task_val *task_slot(struct task_struct *p, struct task_key *key)
{
	struct task_val *v;
	__u32 zero = 0;

	task_key__init(p, key);
	if (by_cgroup)
		key->cgroup_id = bpf_get_current_cgroup_id();
	v = bpf_map_lookup_elem(&tasks, key);
	if (v)
		return v;
	/* scratch is only ever written in the fields set here: the sums
	 * of the new entry start at zero */
	v = bpf_map_lookup_elem(&scratch, &zero);
	if (!v)
		return NULL;
	task_val__init(v, p);
	bpf_map_update_elem(&tasks, key, v, BPF_NOEXIST);
	v = bpf_map_lookup_elem(&tasks, key);
	if (v)
		remember_key(p, key);
	return v;
}

/*
 * The count of an event the kernel bumps in place, loaded from memory:
 * counters array slot -> struct bpf_event_entry -> struct perf_event ->
 * count, at a few ns instead of a helper call. The loads are fault-safe
 * (an emptied slot reads as NULL); the RCU read side this program runs in
 * keeps a replaced entry alive until it is done.
 */
static __always_inline int read_in_memory(__u32 key, __u64 t, struct bpf_perf_event_value *v)
{
	/* the slot is read as the first member of an entry: both are pointers */
	__u32 entry_id = bpf_core_type_id_kernel(struct bpf_event_entry);
	struct bpf_event_entry *slot, *entry;
	struct perf_event *ev;
	__u64 addr = counters_addr;

	if (!addr || key >= nr_counters)
		return -ENOENT;
	addr += bpf_core_field_offset(struct bpf_array, ptrs) + (__u64)key * sizeof(void *);
	slot = bpf_rdonly_cast((void *)addr, entry_id);
	entry = bpf_rdonly_cast(slot->event, entry_id);
	if (!entry)
		return -ENOENT;
	ev = bpf_rdonly_cast(entry->event, bpf_core_type_id_kernel(struct perf_event));
	if (!ev)
		return -ENOENT;
	v->counter = ev->count.a.a.counter;
	v->enabled = t;
	v->running = t;
	return 0;
}

/*
 * One counter with its enabled/running times. An event that is always on
 * the PMU takes the old helper, without the clock reads for the times:
 * both are the clock, which the caller read already.
 */
static __always_inline int read_counter(__u32 key, bool always, __u64 t,
					struct bpf_perf_event_value *v)
{
	__s64 c;

	if (!always)
		return bpf_perf_event_read_value(&counters, key, v, sizeof(*v));
	c = bpf_perf_event_read(&counters, key);
	/* errors come back as a negative errno in the count */
	if (c < 0 && c >= -4095)
		return (int)c;
	v->counter = c;
	v->enabled = t;
	v->running = t;
	return 0;
}

static __always_inline void add(struct counter *c, __u64 dc, __u64 de, __u64 dr)
{
	c->count += dc;
	c->enabled += de;
	c->running += dr;
}

/* prev of this switch is a task leaving the CPU for the last time. p is
 * a trusted pointer here: plain loads, not probe-read helper calls. */
static __always_inline bool final_switch(struct task_struct *p)
{
	if (bpf_core_field_exists(p->__state))
		return p->__state & TASK_DEAD;
	return ((struct task_struct___pre514 *)p)->state & TASK_DEAD;
}

/*
 * One charge in progress: what the steps of charge() share. Always inlined,
 * so it lives in registers and on the stack, never as one object.
 */
struct slice {
	struct cpu_state *cs;
	struct acc *total;	/* this CPU's total bucket */
	struct acc *sink;	/* where the slice goes: an entry, idle or lost */
	__u64 t;		/* now, on the clock that times the slices */
	__u32 cpu;
	__u32 fresh;		/* bit i: event i was read in this run */
	int clock_err;		/* the cpu-clock read that gave t failed */
	bool by_clock;		/* t is this CPU's cpu-clock count */
};

/*
 * Now, for timing the slice. A CPU that reads the cpu-clock event takes
 * its count instead of reading the BPF clock as well; the event loop then
 * reuses this reading (and its error) for that event.
 */
static __always_inline void slice__read_clock(struct slice *s)
{
	struct bpf_perf_event_value clock;
	struct cpu_state *cs = s->cs;

	s->by_clock = clock_event < MAX_EVENTS && clock_event >= cs->ev_lo &&
		      clock_event < cs->ev_hi;
	s->clock_err = 0;
	if (!s->by_clock) {
		s->t = bpf_ktime_get_ns();
		return;
	}
	/* a failed read times nothing: 0 restarts the slice clock */
	s->clock_err = read_counter(clock_event * nr_cpus + s->cpu, true, 0, &clock);
	s->t = s->clock_err ? 0 : clock.counter;
}

/*
 * At a CPU's first charge of an epoch, the last one's slices ended at
 * last_ns: that is the CPU's cut. The loader flushes every online CPU
 * after each flip, so a CPU that missed a whole epoch was offline: its
 * readings are stale (and its events were replaced when it came back).
 * Start afresh.
 */
static __always_inline void cpu_state__forget_stale(struct cpu_state *cs, __u32 ep)
{
	__u32 prev = cs->seen_epoch;

	if (prev != ep) {
		cs->cut_ns[prev & 1] = cs->last_ns;
		cs->cut_epoch[prev & 1] = prev;
	}
	if (ep - prev >= 2) {
		cs->last_ns = 0;
		cs->primed = 0;
	}
	cs->seen_epoch = ep;
}

/* The slice's length; 0 without a previous reading to measure from. */
static __always_inline __u64 cpu_state__slice_ns(struct cpu_state *cs, __u64 t)
{
	__u64 dt = 0;

	/* a clock that went back is a reopened cpu-clock: only restart */
	if (cs->last_ns && t > cs->last_ns)
		dt = t - cs->last_ns;
	cs->last_ns = t;
	return dt;
}

/* Once per epoch, so that the loader reads the entry (see change_list). */
static __always_inline void task_val__list(struct task_val *tv, const struct task_key *key, __u32 ep)
{
	if (tv->listed_epoch != ep + 1) {
		tv->listed_epoch = ep + 1;
		list_change(key, ep);
	}
}

/*
 * Where p's slice is charged: p's entry, or a bucket of this CPU for idle
 * and for a task the full map has no room for. Counters are read even for
 * idle: skipping them would hand the idle slice to whoever runs next.
 */
static __always_inline struct acc *slice__pick_sink(struct slice *s, struct task_struct *p,
						    bool last, __u32 ep)
{
	struct cpu_state *cs = s->cs;
	__u32 half = ep & 1;
	struct task_val *tv;
	struct task_key key;

	if (p->pid == 0 || (p->flags & PF_IDLE))
		return &cs->buckets[BUCKET_IDLE * 2 + half];
	tv = task_slot(p, &key);
	if (!tv) {
		cs->stats.dropped++;
		return &cs->buckets[BUCKET_LOST * 2 + half];
	}
	task_val__list(tv, &key, ep);
	/*
	 * Nothing is charged to it after this. Marked here, not only when it
	 * is freed: with preemptible RCU the free can come before this last
	 * switch.
	 */
	if (last)
		task_val__end(tv);
	return &tv->half[half];
}

static __always_inline void acc__add_slice(struct acc *a, __u64 dt)
{
	a->cpu_ns += dt;
	a->slices++;
}

/*
 * A group member's count, current in memory since its leader's read in
 * this run, with the leader's times: the group is scheduled as one. When
 * that read failed the member fails too, its count being as stale.
 */
static __always_inline int slice__read_member(const struct slice *s, __u32 idx, __u32 leader,
					      struct bpf_perf_event_value *now)
{
	const struct counter *lead;
	int ret;

	if (leader >= MAX_EVENTS || !(s->fresh & (1u << leader)))
		return -ENODATA;
	ret = read_in_memory(idx, 0, now);
	if (ret)
		return ret;
	lead = &s->cs->last[leader];
	now->enabled = lead->enabled;
	now->running = lead->running;
	return 0;
}

/* Event i's count now; the cpu-clock that timed the slice is not read twice. */
static __always_inline int slice__read_event(const struct slice *s, int i, bool mem,
					     struct bpf_perf_event_value *now)
{
	__u32 idx = i * nr_cpus + s->cpu;

	if (s->by_clock && i == clock_event) {
		now->counter = s->t;
		now->enabled = s->t;
		now->running = s->t;
		return s->clock_err;
	}
	if (mem && (in_memory & (1u << i)))
		return read_in_memory(idx, s->t, now);
	if (mem && (group_member & (1u << i)))
		return slice__read_member(s, idx, member_leader[i], now);
	return read_counter(idx, always_on & (1u << i), s->t, now);
}

/* Charge what event i advanced since this CPU's last reading of it. */
static __always_inline void slice__charge_event(struct slice *s, int i, bool mem)
{
	struct cpu_state *cs = s->cs;
	struct counter *prev = &cs->last[i];
	struct bpf_perf_event_value now;
	__u64 dc, de, dr;

	if (slice__read_event(s, i, mem, &now)) {
		/* Forget the reading so the next one only re-primes
		 * instead of charging two slices to one task. */
		cs->primed &= ~(1u << i);
		cs->stats.read_errors++;
		return;
	}
	/* a counter that went back is a new event (the loader reopens a
	 * CPU's events when it comes back online): only prime */
	if (now.counter < prev->count || now.enabled < prev->enabled)
		cs->primed &= ~(1u << i);
	if (cs->primed & (1u << i)) {
		dc = now.counter - prev->count;
		de = now.enabled - prev->enabled;
		dr = now.running - prev->running;
		add(&s->total->ev[i], dc, de, dr);
		add(&s->sink->ev[i], dc, de, dr);
	}
	cs->primed |= 1u << i;
	s->fresh |= 1u << i;
	prev->count = now.counter;
	prev->enabled = now.enabled;
	prev->running = now.running;
}

/*
 * Charge everything counted on this CPU since its last reading to p, which
 * is (or was, until this switch) the task running here. *last* says this
 * is p's final switch-out: its entry is complete. *mem*: load the events
 * in in_memory and group_member from memory.
 */
static __always_inline void charge(struct task_struct *p, bool last, bool mem)
{
	struct slice s;
	__u32 ep, half;
	__u64 dt;
	int i;

	s.cs = this_cpu();
	if (!s.cs)
		return;
	ep = epoch;
	half = ep & 1;
	s.total = &s.cs->buckets[BUCKET_TOTAL * 2 + half];
	s.cpu = bpf_get_smp_processor_id();
	s.fresh = 0;
	slice__read_clock(&s);
	cpu_state__forget_stale(s.cs, ep);
	dt = cpu_state__slice_ns(s.cs, s.t);

	s.sink = slice__pick_sink(&s, p, last, ep);
	acc__add_slice(s.sink, dt);
	acc__add_slice(s.total, dt);
	for (i = 0; i < MAX_EVENTS; i++) {
		if (i >= s.cs->ev_lo && i < s.cs->ev_hi)
			slice__charge_event(&s, i, mem);
	}
	s.cs->stats.switches++;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev)
{
	charge(prev, final_switch(prev), false);
	return 0;
}

/* on_switch for kernels with bpf_rdonly_cast(); the loader loads one. */
SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch_mem, bool preempt, struct task_struct *prev)
{
	if (!counters_addr)
		counters_addr = (__u64)(unsigned long)&counters;
	charge(prev, final_switch(prev), true);
	return 0;
}

/*
 * Not attached: the loader runs it on each CPU (BPF_F_TEST_RUN_ON_CPU)
 * before reading the maps, so the slice of a task that is running right
 * now, and may never switch out, is charged too.
 */
SEC("raw_tp")
int BPF_PROG(flush)
{
	charge(bpf_get_current_task_btf(), false, false);
	return 0;
}

/*
 * Runs after the task's last switch-out: its entry is final and can be
 * reported one last time, then freed by the loader (with any entries of
 * cgroups it left earlier). Its task storage is only released after this.
 */
SEC("tp_btf/sched_process_free")
int BPF_PROG(on_free, struct task_struct *p)
{
	struct task_key *k;
	struct task_key key;

	/* still making its last switch: that switch marks the entry */
	if (p->on_cpu)
		return 0;
	k = bpf_task_storage_get(&task_keys, p, 0, 0);
	if (k) {
		/* a leader replaced by an exec'ing thread: the identity lives on */
		if (k->tid == p->pid)
			mark_ended(k);
		return 0;
	}
	/* no storage (its allocation can fail under contention): the key
	 * the task would have now */
	current_key(p, &key);
	mark_ended(&key);
	return 0;
}

/*
 * A thread that execs becomes its process's leader: it takes the leader's
 * pid and start time. Its entry under its old identity ends here; later
 * charges go to the leader's.
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, pid_t old_pid)
{
	struct task_key *k = bpf_task_storage_get(&task_keys, p, 0, 0);
	struct task_val *v;

	if (!k || old_pid == p->pid || k->tid != (__u32)old_pid)
		return 0;
	mark_ended(k);
	k->tid = p->pid;
	k->start_ns = p->start_time;
	if (by_cgroup)
		k->cgroup_id = bpf_get_current_cgroup_id();
	/* the new name went to the old entry (the rename came first) */
	v = bpf_map_lookup_elem(&tasks, k);
	if (v)
		bpf_probe_read_kernel(v->comm, TASK_COMM_LEN, p->comm);
	return 0;
}

/*
 * A task's name changes at exec and prctl(PR_SET_NAME), both through
 * here, before the new name is stored: cheaper than copying the name at
 * every switch.
 */
SEC("tp_btf/task_rename")
int BPF_PROG(on_rename, struct task_struct *p, const char *comm)
{
	struct task_key *k = bpf_task_storage_get(&task_keys, p, 0, 0);
	struct task_key key;
	struct task_val *v;

	if (!k) {
		current_key(p, &key);
		k = &key;
	}
	v = bpf_map_lookup_elem(&tasks, k);
	if (v)
		bpf_probe_read_kernel_str(v->comm, TASK_COMM_LEN, comm);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
