# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# bash completion for tdtop: commands, each command's options (as its
# --help lists them), sort keys, event names (from tdtop --list-events),
# cgroup paths (from the cgroup2 mount), PIDs and files.
# tests/install/check.py keeps the lists here equal to tdtop's.

_tdtop_opts_top="-l --level --list --strict --allow-smt -e --events --list-events
	-p --pid -H --threads --by -c --cgroup --cgroup-depth -d --delay -n --iterations
	--max-tasks --helper-reads -o --output -s --sort --top -b --batch
	-v --verbose -h --help -V --version"
_tdtop_opts_record="-o --output --force --duration -d --delay -n --iterations --max-tasks
	--helper-reads -l --level --list --strict --allow-smt -e --events --list-events
	-p --pid -H --threads --by -c --cgroup --cgroup-depth -v --verbose -h --help
	-V --version"
_tdtop_opts_report="--diff -l --level -d --delay -p --pid -H --threads --by
	-o --output -s --sort --top -b --batch -h --help -V --version"
_tdtop_opts_exporter="--listen --web-config -d --delay --max-tasks --helper-reads -l --level --list
	--strict --allow-smt -e --events --list-events -p --pid -H --threads --by
	-c --cgroup --cgroup-depth --top -v --verbose -h --help -V --version"

# TopDown fields by their names (as JSON has them), then the short aliases
_tdtop_sort_keys="cpu cpu_pct pid comm slots ipc retiring bad_speculation frontend_bound
	backend_bound heavy_operations light_operations branch_mispredicts machine_clears
	fetch_latency fetch_bandwidth memory_bound core_bound smt_contention
	bad-spec frontend backend heavy-ops light-ops branch-mispredicts machine-clears
	fetch-latency fetch-bandwidth memory-bound core-bound smt-contention"

# The tdtop being completed, to ask it what this machine counts.
_tdtop_bin()
{
	local bin=${COMP_WORDS[0]}

	[[ $bin == */* && -x $bin ]] || bin=$(command -v tdtop || echo /usr/local/bin/tdtop)
	printf '%s\n' "$bin"
}

# Every event name and alias --list-events gives (not the PMU terms, nor
# the rNNNN placeholder).
_tdtop_events()
{
	"$(_tdtop_bin)" --list-events 2>/dev/null | awk '
		/^PMU terms/ { exit }
		$1 != "rNNNN" && /^  [^ (]/ {
			print $1
			if (match($0, /\(alias: [^)]*\)/))
				print substr($0, RSTART + 8, RLENGTH - 9)
		}'
}

_tdtop_cgroup_root()
{
	awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts 2>/dev/null
}

# Cgroup directories below the cgroup2 mount, relative to it as -c takes them.
_tdtop_cgroups()
{
	local cur=$1 root dir

	root=$(_tdtop_cgroup_root)
	[[ -n $root && -d $root ]] || return 0
	if [[ $cur == /* ]]; then
		compgen -d -- "$cur"
		return 0
	fi
	while IFS= read -r dir; do
		printf '%s\n' "${dir#"$root"/}"
	done < <(compgen -d -- "$root/$cur")
}

# The words of a comma-separated list: complete the last one, keep the rest.
_tdtop_list()
{
	local cur=$1 words=$2 head=

	[[ $cur == *,* ]] && head=${cur%,*},
	COMPREPLY=($(compgen -P "$head" -W "$words" -- "${cur##*,}"))
}

# The events -e names on the command line, which -s can sort by.
_tdtop_line_events()
{
	local i

	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		case ${COMP_WORDS[i]} in
		-e | --events) printf '%s\n' "${COMP_WORDS[i + 1]//,/ }" ;;
		esac
	done
}

_tdtop()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd=top opts

	COMPREPLY=()
	case ${COMP_WORDS[1]} in
	record | report | exporter) [[ $COMP_CWORD -gt 1 ]] && cmd=${COMP_WORDS[1]} ;;
	esac

	case $prev in
	-l | --level)
		COMPREPLY=($(compgen -W "1 2" -- "$cur"))
		return 0
		;;
	--by)
		if [[ $cmd == exporter ]]; then
			COMPREPLY=($(compgen -W "cgroup process" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "process thread cgroup" -- "$cur"))
		fi
		return 0
		;;
	-o | --output)
		if [[ $cmd == record ]]; then
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		else
			COMPREPLY=($(compgen -W "text json csv" -- "$cur"))
		fi
		return 0
		;;
	-s | --sort)
		COMPREPLY=($(compgen -W "$_tdtop_sort_keys $(_tdtop_line_events)" -- "$cur"))
		return 0
		;;
	-e | --events)
		_tdtop_list "$cur" "$(_tdtop_events)"
		return 0
		;;
	-p | --pid)
		_tdtop_list "$cur" "$(cd /proc && compgen -G '[0-9]*')"
		return 0
		;;
	-c | --cgroup)
		mapfile -t COMPREPLY < <(_tdtop_cgroups "$cur")
		return 0
		;;
	-d | --delay | -n | --iterations | --top | --max-tasks | --cgroup-depth | \
		--duration | --listen)
		return 0
		;;
	esac

	if [[ $cur == -* ]]; then
		opts=_tdtop_opts_$cmd
		COMPREPLY=($(compgen -W "${!opts}" -- "$cur"))
	elif [[ $cmd == report ]]; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	elif [[ $cmd == top && $COMP_CWORD -eq 1 ]]; then
		COMPREPLY=($(compgen -W "record report exporter" -- "$cur"))
	fi
	return 0
}

complete -F _tdtop tdtop
