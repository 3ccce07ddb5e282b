#!/usr/bin/env bash
# What dead DPDK processes left behind: hugepage files and runtime
# directories that no live process holds a lock on (EAL locks both for as
# long as it uses them; /proc/locks lists every lock by inode). Prints
# them and exits 1 when there are any. Run by `make test` at its end and by
# scripts/run-e2e.sh after each test: only SIGKILL may leave anything, and
# the next primary reclaims it, so a leftover after a test is a leak.
# --remove: remove them too (after reporting), so one leak is blamed once.
set -u
locked_inodes=$(awk '$2 != "->" {split($6, a, ":"); print a[3]}' /proc/locks | sort -u)
# unlocked PATH...: those of the paths whose inode no lock holds, or that
# are gone (one stat for them all: a fork per file took seconds beside a
# busy-polling engine, e.g. for the hugepage files of a primary just killed).
unlocked() {
	[ $# -gt 0 ] || return 0
	{ printf '%s\n' "$locked_inodes"; echo "--"; printf '%s\n' "$@"; echo "--"
	  stat -c '%i %n' -- "$@" 2>/dev/null; } |
		awk 'p == 0 && $0 == "--" { p = 1; next } p == 1 && $0 == "--" { p = 2; next }
		     p == 0 { l[$0] = 1; next } p == 1 { want[++n] = $0; next }
		     { i = $1; sub(/^[0-9]+ /, ""); ino[$0] = i }
		     END { for (k = 1; k <= n; k++) if (!(want[k] in ino) || !(ino[want[k]] in l)) print want[k] }'
}
left=()
files=()
for m in $(awk '$3 == "hugetlbfs" {print $2}' /proc/mounts); do
	for f in "$m"/*map_*; do
		[ -e "$f" ] && files+=("$f")
	done
done
while IFS= read -r f; do left+=("$f"); done < <(unlocked "${files[@]}")
# A primary's own hugetlbfs (primary/boot/hugedir.h): its lock file held
# for as long as the primary lives.
files=()
for l in /run/dperf/hugepages/*.lock; do
	[ -e "$l" ] && files+=("$l")
done
while IFS= read -r l; do left+=("${l%.lock}"); done < <(unlocked "${files[@]}")
for d in /run/dperf/hugepages/*/; do
	[ -d "$d" ] && [ ! -e "${d%/}.lock" ] && left+=("${d%/}")
done
files=()
for d in /var/run/dpdk/*/; do
	[ -d "$d" ] && files+=("${d}config")
done
while IFS= read -r c; do left+=("${c%/config}"); done < <(unlocked "${files[@]}")
[ ${#left[@]} = 0 ] && exit 0
n=${#left[@]}
echo "leftovers of dead DPDK processes ($n): ${left[*]:0:5}$([ "$n" -gt 5 ] && echo " ...")"
if [ "${1:-}" = --remove ]; then
	for f in "${left[@]}"; do
		case $f in /run/dperf/hugepages/*) umount -l "$f" 2>/dev/null; rmdir "$f" 2>/dev/null; rm -f "$f.lock" ;;
		*) rm -rf "$f" ;; esac
	done
fi
exit 1
