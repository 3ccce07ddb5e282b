#!/usr/bin/env bash
# The demo: a server and a client primary over a net_memif pair, the
# client's per-second statistics live on this terminal, then both stopped
# and cleaned up. Run by `make demo` after deps, hugepages and the build.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
log=$(mktemp /tmp/dperf-demo-server.XXXXXX)
srv=""
cleanup() {
	[ -n "$srv" ] && kill -0 "$srv" 2>/dev/null && { "$BUILD/dperf-ctl" -p demo-server stop >/dev/null 2>&1 || kill -TERM "$srv"; wait "$srv" 2>/dev/null || true; }
	rm -f "$log"
}
trap cleanup EXIT INT TERM

echo "== starting the server (conf/memif-server.conf), its output in $log"
"$BUILD/dperf" -c conf/memif-server.conf -p demo-server >"$log" 2>&1 &
srv=$!
for _ in $(seq 50); do "$BUILD/dperf-ctl" -p demo-server status >/dev/null 2>&1 && break; sleep 0.1; done
echo "== running the client (conf/memif-client.conf) for 8 s; from another terminal try:"
echo "     $BUILD/dperf-top -p demo-client        $BUILD/dperf-ctl -p demo-client set cps 20k"
"$BUILD/dperf" -c conf/memif-client.conf -p demo-client
echo "== server totals"
"$BUILD/dperf-ctl" -p demo-server stats | sed -n '1,8p'
