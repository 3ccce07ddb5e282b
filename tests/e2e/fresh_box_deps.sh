#!/usr/bin/env bash
# The `deps` step of test_fresh_box: make starts with PKG_CONFIG_LIBDIR set
# to an empty directory, so pkg-config sees no DPDK, as on a box where
# install-deps has not run yet. This step "installs" it: it first checks
# that DPDK really was invisible, then copies the system's pkg-config
# files into that directory, as apt-get would have made them appear.
set -euo pipefail
: "${PKG_CONFIG_LIBDIR:?fresh_box_deps: PKG_CONFIG_LIBDIR must name the pkg-config directory of the fresh box}"
if pkg-config --exists libdpdk; then
	echo "fresh_box_deps: libdpdk was already visible before deps ran: the test proves nothing" >&2
	exit 1
fi
for d in /usr/lib/x86_64-linux-gnu/pkgconfig /usr/lib/pkgconfig /usr/share/pkgconfig; do
	[ -d "$d" ] && cp -n "$d"/*.pc "$PKG_CONFIG_LIBDIR"/ 2>/dev/null || true
done
pkg-config --exists libdpdk || { echo "fresh_box_deps: libdpdk still not visible after deps" >&2; exit 1; }
echo "fresh_box_deps: DPDK's development files are now visible to pkg-config"
