#!/usr/bin/env bash
# Reserve 2 MB hugepages so that at least HUGEPAGES_MB (default 2048) MB are
# free, and mount hugetlbfs at /dev/hugepages when no hugetlbfs is mounted.
# Never lowers the reservation.
set -euo pipefail

WANT_MB=${HUGEPAGES_MB:-2048}
if ! [[ "$WANT_MB" =~ ^[0-9]+$ ]]; then
	echo "hugepages: HUGEPAGES_MB must be a number of MB, got '$WANT_MB'" >&2
	exit 1
fi
PAGE_MB=2
DIR=/sys/kernel/mm/hugepages/hugepages-2048kB
NR=$DIR/nr_hugepages
FREE=$DIR/free_hugepages
want_pages=$(( (WANT_MB + PAGE_MB - 1) / PAGE_MB ))

if [ ! -r "$NR" ] || [ ! -r "$FREE" ]; then
	echo "hugepages: $DIR not found: this kernel has no 2 MB hugepages (CONFIG_HUGETLBFS?)" >&2
	exit 1
fi

hugetlbfs_mount() {
	awk '$3 == "hugetlbfs" { print $2; exit }' /proc/mounts
}

nr=$(cat "$NR")
nr0=$nr
free=$(cat "$FREE")
if [ "$free" -lt "$want_pages" ]; then
	need=$(( want_pages - free ))
	# Ignore the write error here: the re-read below tells what we got.
	echo $(( nr + need )) > "$NR" 2>/dev/null || true
fi

mnt=$(hugetlbfs_mount)
if [ -z "$mnt" ]; then
	if mkdir -p /dev/hugepages 2>/dev/null && mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null; then
		mnt=/dev/hugepages
	fi
fi

nr=$(cat "$NR")
free=$(cat "$FREE")
if [ "$free" -lt "$want_pages" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		hint="run as root (sudo $0)"
	else
		hint="free memory or drop caches (echo 3 > /proc/sys/vm/drop_caches) and retry, reserve at boot (hugepages=$want_pages on the kernel command line), or in a container reserve them on the host"
	fi
	echo "hugepages: only $(( free * PAGE_MB )) MB of 2 MB hugepages free, $WANT_MB MB wanted ($(( nr * PAGE_MB )) MB reserved); $hint" >&2
	exit 1
fi
if [ -z "$mnt" ]; then
	echo "hugepages: $(( free * PAGE_MB )) MB free but no hugetlbfs mounted and mounting at /dev/hugepages failed; run as root: mkdir -p /dev/hugepages && mount -t hugetlbfs nodev /dev/hugepages" >&2
	exit 1
fi
# Pages just reserved are touched once here: a VM backs a page only when
# it is first written (2.5 ms a page here), and a primary's legacy memory
# maps every free page at its start: the first one after a reservation
# took 5.3 s for 1,024 new pages (0.5 s on later starts), which lost make
# demo's race on a fresh box. fallocate makes (and zeroes) the pages of a
# file, which then goes.
if [ "$nr" -gt "$nr0" ]; then
	t0=$(date +%s%N)
	f="$mnt/.dperf-hugepages-touch.$$"
	if fallocate -l $(( (nr - nr0) * PAGE_MB ))M "$f" 2>/dev/null; then
		echo "hugepages: touched the $(( nr - nr0 )) new pages once in $(( ($(date +%s%N) - t0) / 1000000 )) ms (a VM backs a page at its first write)"
	fi
	rm -f "$f"
fi
echo "hugepages: $(( free * PAGE_MB )) MB free of $(( nr * PAGE_MB )) MB reserved, hugetlbfs at $mnt"
