#!/usr/bin/env bash
# report-shot.sh REPORT.html OUT.png [WIDTH HEIGHT [SCALE]]: a dperf-report
# page rendered by headless Chromium (Debian's chromium) to a PNG, offline:
# no network, no profile kept, nothing of the page's own fetched. Exits
# non-zero, with Chromium's last lines, when it fails or reports an error
# on the page. The README's picture and tests/e2e/test_report.sh use it.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: report-shot.sh REPORT.html OUT.png [WIDTH HEIGHT [SCALE]]" >&2; exit 2; }
page=$(realpath "$1") out=$2 w=${3:-1400} h=${4:-3000} scale=${5:-1}
[ -f "$page" ] || { echo "report-shot.sh: $1: no such file" >&2; exit 2; }
prof=$(mktemp -d /tmp/report-shot.XXXXXX)
trap 'rm -rf "$prof"' EXIT
rc=0
timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
	--hide-scrollbars --force-device-scale-factor="$scale" --screenshot="$(realpath -m "$out")" \
	--window-size="$w,$h" "file://$page" >"$prof/log" 2>&1 || rc=$?
if [ $rc != 0 ] || [ ! -s "$out" ]; then
	echo "report-shot.sh: chromium failed (exit $rc): $(tail -3 "$prof/log")" >&2
	exit 1
fi
# Chromium's own noise (no D-Bus in a container) is not the page's.
if grep -E "CONSOLE|Uncaught|net::ERR_" "$prof/log" >&2; then
	echo "report-shot.sh: chromium reported errors on the page (above)" >&2
	exit 1
fi
