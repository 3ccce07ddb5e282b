#!/usr/bin/env bash
# The demo: a server and a client primary over a net_memif pair, the
# client's per-second statistics live on this terminal, then both stopped
# and cleaned up. Run by `make demo` after deps, hugepages and the build.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SERVER_CONF=conf/memif-server.conf
# How long the server may take to come up: legacy memory maps every free
# hugepage at start, 2.5 ms each the first time a VM touches it (1,024
# pages: 5 s; the old 5 s wait lost that race on a fresh box).
READY_S=${DEMO_READY_S:-60}
log=$(mktemp /tmp/dperf-demo-server.XXXXXX)
srv=""
ok=0
cleanup() {
	[ -n "$srv" ] && kill -0 "$srv" 2>/dev/null && { "$BUILD/dperf-ctl" -p demo-server stop >/dev/null 2>&1 || kill -TERM "$srv"; wait "$srv" 2>/dev/null || true; }
	if [ "$ok" = 1 ]; then
		rm -f "$log"
	else
		echo "== the demo failed; the server's log is kept: $log (its last lines:)" >&2
		tail -15 "$log" | sed 's/^/   /' >&2
	fi
}
trap cleanup EXIT INT TERM

sock=$(sed -n 's/^port.*socket=\([^ ,]*\).*/\1/p' "$SERVER_CONF")
# What the server publishes when it is ready: its state in the memzone
# (running, once its port is up) and its memif socket listening (the
# client's memif connects once and fails if nobody listens). DPDK's memif
# socket is abstract by default: ss shows it as @PATH.
server_ready() {
	"$BUILD/dperf-ctl" -p demo-server status 2>/dev/null | grep -qx 'state: running' &&
		ss -xlH 2>/dev/null | awk -v s="$sock" '$5 == s || $5 == "@" s { f = 1 } END { exit !f }'
}

echo "== starting the server ($SERVER_CONF), its output in $log"
"$BUILD/dperf" -c "$SERVER_CONF" -p demo-server >"$log" 2>&1 &
srv=$!
echo "== waiting up to $READY_S s for the server: state running and its memif socket $sock listening"
start=$SECONDS
until server_ready; do
	kill -0 "$srv" 2>/dev/null || { echo "== the server exited before it was ready" >&2; exit 1; }
	[ $((SECONDS - start)) -lt "$READY_S" ] || { echo "== the server was not ready after $READY_S s" >&2; exit 1; }
	sleep 0.1
done
echo "== the server is ready after $((SECONDS - start)) s"
echo "== running the client (conf/memif-client.conf) for 8 s; from another terminal try:"
echo "     $BUILD/dperf-top -p demo-client        $BUILD/dperf-ctl -p demo-client set cps 20k"
"$BUILD/dperf" -c conf/memif-client.conf -p demo-client
echo "== server totals"
"$BUILD/dperf-ctl" -p demo-server stats | sed -n '1,8p'
ok=1
