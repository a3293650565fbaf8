# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Checks tdtop's JSON Lines inside the old-kernel VM (busybox awk, no JSON
# parser): the interval count, conservation (rows + idle + lost == totals
# for cpu_ns and every event, rows being processes or depth-0 cgroups), the
# machine total, and optionally one process's CPU time against the truth
# (its schedstat before and after, in ns).
# Prints "PASS ..." or "FAIL <first problem>".
#   awk -v want=N [-v pid=P -v before=NS -v after=NS -v comm=NAME] -f check.awk FILE

# The text of the object after "key":{ up to its closing brace.
function obj(s, key,    i, rest) {
	i = index(s, "\"" key "\":{")
	if (!i)
		return ""
	rest = substr(s, i + length(key) + 4)
	return substr(rest, 1, index(rest, "}") - 1)
}

# The number after "key": in s; "" when absent.
function num(s, key,    i, rest) {
	i = index(s, "\"" key "\":")
	if (!i)
		return ""
	rest = substr(s, i + length(key) + 3)
	if (!match(rest, /^-?[0-9.eE+]+/))
		return ""
	return substr(rest, 1, RLENGTH) + 0
}

function str(s, key,    i, rest) {
	i = index(s, "\"" key "\":\"")
	if (!i)
		return ""
	rest = substr(s, i + length(key) + 4)
	return substr(rest, 1, index(rest, "\"") - 1)
}

function fail(msg) {
	if (!failed)
		first = msg
	failed = 1
}

function abs(x) { return x < 0 ? -x : x }

# Compares the rows summed so far with the interval they belong to.
function close_interval(    k, n, ev, want_ev, got) {
	if (!nr)
		return
	if (rows_cpu + idle_cpu + lost_cpu != total_cpu)
		fail(sprintf("interval %d: cpu_ns rows %d + idle %d + lost %d != total %d",
			     nr, rows_cpu, idle_cpu, lost_cpu, total_cpu))
	n = split(events, ev, " ")
	for (k = 1; k <= n; k++) {
		want_ev = tot[ev[k]]
		got = rows_ev[ev[k]] + idl[ev[k]] + lst[ev[k]]
		if (got != want_ev)
			fail(sprintf("interval %d: %s rows + idle + lost = %d != total %d",
				     nr, ev[k], got, want_ev))
	}
}

/"type":"interval"/ {
	close_interval()
	nr++
	c = obj($0, "cpu_ns")
	total_cpu = num(c, "total"); idle_cpu = num(c, "idle"); lost_cpu = num(c, "lost")
	rows_cpu = 0
	delete tot; delete idl; delete lst; delete rows_ev
	events = ""
	t = obj($0, "totals")
	n = split(t, pairs, ",")
	for (k = 1; k <= n; k++) {
		split(pairs[k], kv, ":")
		name = kv[1]
		gsub(/"/, "", name)
		events = events " " name
		tot[name] = kv[2] + 0
		idl[name] = num(obj($0, "idle"), name)
		lst[name] = num(obj($0, "lost"), name)
	}
	ncpus = num($0, "ncpus")
	secs = num($0, "interval_s")
	if ("cpu-clock" in tot && abs(tot["cpu-clock"] - ncpus * secs * 1e9) > 0.02 * ncpus * secs * 1e9)
		fail(sprintf("interval %d: total cpu-clock %d is not %d CPUs x %.3f s",
			     nr, tot["cpu-clock"], ncpus, secs))
	next
}

/"type":"(process|thread|cgroup)"/ {
	if (!nr) {
		fail("a row before the first interval")
		next
	}
	if (index($0, "\"type\":\"cgroup\"") && num($0, "depth") != 0)
		next
	rows_cpu += num($0, "cpu_ns")
	c = obj($0, "counts")
	n = split(events, ev, " ")
	for (k = 1; k <= n; k++)
		rows_ev[ev[k]] += num(c, ev[k])
	if (pid != "" && num($0, "pid") == pid + 0) {
		seen_cpu += num($0, "cpu_ns")
		seen_clock += num(c, "cpu-clock")
		last_comm = str($0, "comm")
	}
	next
}

{ fail("unexpected line " NR ": " substr($0, 1, 80)) }

END {
	close_interval()
	if (nr != want + 0)
		fail(sprintf("%d intervals, expected %d", nr, want))
	if (pid != "") {
		truth = after - before
		if (truth <= 0)
			fail("no CPU time measured for the process")
		else if (abs(seen_cpu - truth) > 0.03 * truth + 3000000)
			fail(sprintf("pid %d: cpu_ns %d vs its own CPU time %d", pid, seen_cpu, truth))
		else if (abs(seen_clock - truth) > 0.03 * truth + 3000000)
			fail(sprintf("pid %d: cpu-clock %d vs its own CPU time %d", pid, seen_clock, truth))
		else if (comm != "" && last_comm != comm)
			fail(sprintf("pid %d: comm '%s' after exec and rename, expected '%s'",
				     pid, last_comm, comm))
	}
	if (failed) {
		print "FAIL " first
		exit 1
	}
	if (pid != "")
		printf "PASS %d intervals conserved; pid %d (%s) cpu_ns %d cpu-clock %d vs its own %d (%+.2f%%)\n",
		       nr, pid, last_comm, seen_cpu, seen_clock, truth, 100 * (seen_cpu - truth) / truth
	else
		printf "PASS %d intervals conserved\n", nr
}
