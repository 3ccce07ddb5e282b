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
locked() { local ino; ino=$(stat -c %i "$1" 2>/dev/null) || return 1; grep -qx "$ino" <<<"$locked_inodes"; }
left=()
for m in $(awk '$3 == "hugetlbfs" {print $2}' /proc/mounts); do
	for f in "$m"/*map_*; do
		[ -e "$f" ] || continue
		locked "$f" || left+=("$f")
	done
done
# A primary's own hugetlbfs (primary/boot/hugedir.h): its lock file held
# for as long as the primary lives.
for l in /run/dperf/hugepages/*.lock; do
	[ -e "$l" ] || continue
	locked "$l" || left+=("${l%.lock}")
done
for d in /run/dperf/hugepages/*/; do
	[ -d "$d" ] && [ ! -e "${d%/}.lock" ] && left+=("${d%/}")
done
for d in /var/run/dpdk/*/; do
	[ -d "$d" ] || continue
	locked "${d}config" || left+=("${d%/}")
done
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
