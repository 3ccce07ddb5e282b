#!/usr/bin/env bash
# Install dperf-live's dependencies on Debian 12: `install-deps.sh demo`
# what building and running the demo needs (make demo: the first command a
# newcomer types, kept quick), `install-deps.sh test` (the default) that and
# what the tests need too (make test: sanitizers, fuzzers, nginx, curl,
# Prometheus, Ansible, Chromium for the report's screenshots, ...).
# Installs only the packages that are missing; runs apt-get update only then.
set -euo pipefail

DEMO_PKGS=(build-essential pkg-config dpdk dpdk-dev libdpdk-dev libnuma-dev libbsd-dev
           libncurses-dev libmicrohttpd-dev libjansson-dev libssl-dev openssl libtcmalloc-minimal4 iproute2 procps)
TEST_PKGS=(libcmocka-dev ansible tmux curl wrk apache2-utils nginx-light iputils-ping python3
           python3-scapy python3-matplotlib chromium prometheus kmod clang mandoc man-db systemd gdb)
case "${1:-test}" in
demo) PKGS=("${DEMO_PKGS[@]}") ;;
test) PKGS=("${DEMO_PKGS[@]}" "${TEST_PKGS[@]}") ;;
*) echo "install-deps: unknown set '$1' (expected demo or test)" >&2; exit 2 ;;
esac

missing=()
for p in "${PKGS[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	if [ "$status" != "installed" ]; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#PKGS[@]} packages already installed, nothing to do"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: not root: cannot install ${missing[*]}; run as root (e.g. sudo $0)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >/dev/null; then
	echo "install-deps: apt-get update failed (network or sources.list?)" >&2
	exit 1
fi
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
	echo "install-deps: apt-get install failed for: ${missing[*]}" >&2
	exit 1
fi
echo "install-deps: installed ${#missing[@]} missing package(s): ${missing[*]}"
