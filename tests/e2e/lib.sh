#!/usr/bin/env bash
# Shared helpers for end-to-end tests. Source it; it sets:
#   BUILD  build directory (default build)
#   T      a private temporary directory, removed at exit
# and cleans up, at exit, every process started with start_primary/bg and
# every namespace made with make_ns.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
# The secondaries' build: the same as BUILD, except under ASan, where the
# primary is what is being checked and an ASan secondary cannot always map
# the primary's hugepages at the same addresses (its shadow memory may sit
# there): `make e2e-asan` sets SECONDARY_BUILD=build.
SECONDARY_BUILD=${SECONDARY_BUILD:-$BUILD}
case "$SECONDARY_BUILD" in /*) ;; *) SECONDARY_BUILD=$ROOT/$SECONDARY_BUILD ;; esac
T=$(mktemp -d /tmp/dperf-e2e.XXXXXX)
PIDS=()
NSS=()
TEST_NAME=$(basename "$0" .sh)

fail() { echo "FAIL [$TEST_NAME]: $*" >&2; exit 1; }
pass() { echo "PASS [$TEST_NAME]${1:+: $1}"; }
note() { echo "  [$TEST_NAME] $*"; }

cleanup() {
	local rc=$?
	set +e
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for _ in $(seq 50); do
		local alive=0
		for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ $alive = 0 ] && break
		sleep 0.1
	done
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for n in "${NSS[@]}"; do ip netns pids "$n" 2>/dev/null | xargs -r kill -KILL 2>/dev/null; ip netns del "$n" 2>/dev/null; done
	if [ $rc != 0 ]; then
		for f in "$T"/*.log; do [ -f "$f" ] && { echo "---- $f (tail)"; tail -25 "$f"; }; done
	fi
	[ -n "${KEEP_T:-}" ] || rm -rf "$T"
	exit $rc
}
trap cleanup EXIT

# bg CMD...: run in the background, remembered for cleanup; sets LAST_PID.
bg() { "$@" & LAST_PID=$!; PIDS+=("$LAST_PID"); }

# start_primary NAME CONF [NETNS]: start build/dperf (plus $DPERF_ARGS);
# wait until it answers.
start_primary() {
	local name=$1 conf=$2 ns=${3:-}
	# shellcheck disable=SC2086
	if [ -n "$ns" ]; then
		bg ip netns exec "$ns" "$BUILD/dperf" -c "$conf" -p "$name" ${DPERF_ARGS:-} >"$T/$name.log" 2>&1
	else
		bg "$BUILD/dperf" -c "$conf" -p "$name" ${DPERF_ARGS:-} >"$T/$name.log" 2>&1
	fi
	local pid=$LAST_PID
	for _ in $(seq 100); do
		"$SECONDARY_BUILD/dperf-ctl" -p "$name" status >/dev/null 2>&1 && { eval "PID_${name//-/_}=$pid"; return 0; }
		kill -0 "$pid" 2>/dev/null || fail "$name exited at start: $(tail -3 "$T/$name.log")"
		sleep 0.1
	done
	fail "$name did not come up"
}

# wait_exit PID SECONDS: wait for a process to end by itself; returns its status.
wait_exit() {
	local pid=$1 secs=$2
	for _ in $(seq $((secs * 10))); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid"; return $?; }
		sleep 0.1
	done
	fail "process $pid still running after ${secs}s"
}

# wait_until SECONDS CMD...: run CMD every 0.1 s until it succeeds (0), or
# give up after SECONDS of wall time (1); CMD runs at least once. (A CMD
# that attaches a secondary takes a while itself: counting tries instead
# of time made "5 s" last a minute on a loaded box.) Readiness is a
# condition, not a sleep.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	while :; do
		"$@" && return 0
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# stat_of NAME KEY: a field of a primary's one-shot stats --json.
stat_of() { jget "$("$SECONDARY_BUILD/dperf-ctl" -p "$1" stats --json)" "$2"; }

# total LOG NAME: a counter from the final summary in a primary's log.
total() {
	awk -v k="$2" '/^---- dperf .* total/{s=1} s{for(i=1;i<NF;i++) if($i==k){print $(i+1); exit}}' "$1"
}

# run_pair SERVER CLIENT SERVER_CONF CLIENT_CONF: start both, let the
# client run to its end, stop the server; both must exit with status 0.
run_pair() {
	start_primary "$1" "$3"
	start_primary "$2" "$4"
	wait_exit "$(eval echo "\$PID_${2//-/_}")" 30 || fail "client exited with an error"
	ctl -p "$1" stop >/dev/null
	wait_exit "$(eval echo "\$PID_${1//-/_}")" 15 || fail "server exited with an error"
}

# jget JSON KEY: a top-level field of a JSON object.
jget() { /usr/bin/python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

ctl() { "$SECONDARY_BUILD/dperf-ctl" "$@"; }
# forget_killed: what a primary killed with SIGKILL left, which the next
# primary would reclaim (its runtime directory, its own hugetlbfs, its
# hugepage files): removed by the check run-e2e.sh runs after each test,
# which would otherwise blame it on this one.
forget_killed() { "$ROOT/scripts/check-leftovers.sh" --remove >/dev/null || true; }
# huge_files NAME: the hugepage files of a running primary, in its own
# hugetlbfs, or the box's where it has none.
huge_files() {
	local d=/run/dperf/hugepages/$1
	[ -d "$d" ] || d=/dev/hugepages
	ls -d "$d/$1"map_* 2>/dev/null
}

# ns_retrans NS: the kernel's TcpRetransSegs inside namespace NS (its own
# /proc/net/snmp): segments the kernel's TCP sent again.
ns_retrans() {
	ip netns exec "$1" awk '/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++) if ($i == "RetransSegs") c = i; h = 1 } else print $c }' /proc/net/snmp
}
# make_ns NAME: a fresh network namespace, deleted at exit.
# tap_client_lines IFACE: a client's lines for a tap port IFACE at
# 198.18.0.2 facing a kernel server at 198.18.0.1 in a namespace (one
# address each, port 80, no slow start, CLIENT_WAIT seconds' wait,
# default 1: the peer's address goes on the tap device only once the
# primary is up, and the run's duration counts from the start, so the wait
# keeps that setup out of the seconds at full rate).
tap_client_lines() {
	cat <<CONF
port net_tap0,iface=$1 198.18.0.2 198.18.0.1
client 198.18.0.2 1
server 198.18.0.1 1
listen 80 1
slow_start 0
wait ${CLIENT_WAIT:-1}
lport_range 10000 60000
CONF
}
# tap_server_lines IFACE: a server's lines for a tap port IFACE at
# 198.18.0.1 answering the kernel's clients at 198.18.0.2 in a namespace
# (one address each, port 80).
tap_server_lines() {
	cat <<CONF
port net_tap0,iface=$1 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.1 1
listen 80 1
CONF
}
make_ns() { ip netns del "$1" 2>/dev/null || true; ip netns add "$1"; NSS+=("$1"); ip -n "$1" link set lo up; }

# nginx_start NS PORT [LEVEL] <<CONF: nginx in namespace NS, its
# http { } block's own lines on stdin (log formats, servers), framed by
# what every test's nginx needs: one worker in the foreground, pid, logs
# and temp files in $T/nginx, error_log at LEVEL (default error; info
# is where nginx reports TLS handshake failures). Started as root, nginx
# serves files as nobody: $T and $T/www are opened to others. Returns once
# PORT listens in NS; NGINX is its pid.
nginx_start() {
	local ns=$1 port=$2 level=${3:-error} body
	body=$(cat)
	mkdir -p "$T/nginx"
	chmod o+x "$T"
	[ ! -d "$T/www" ] || chmod -R o+rX "$T/www"
	cat >"$T/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $T/nginx/nginx.pid;
error_log $T/nginx/error.log $level;
events { worker_connections 4096; }
http {
    client_body_temp_path $T/nginx;
    proxy_temp_path $T/nginx;
    fastcgi_temp_path $T/nginx;
    uwsgi_temp_path $T/nginx;
    scgi_temp_path $T/nginx;
$body
}
CONF
	bg ip netns exec "$ns" nginx -c "$T/nginx.conf" -p "$T/nginx"
	NGINX=$LAST_PID
	wait_until 10 nginx_listening "$ns" "$port" || fail "nginx did not start: $(cat "$T/nginx/error.log")"
}
nginx_listening() { kill -0 "$NGINX" && ip netns exec "$1" ss -ltnH "sport = :$2" | grep -q LISTEN; }

# memif_pair DIR: write DIR/server.conf and DIR/client.conf for a memif
# pair; extra lines come from $SERVER_EXTRA and $CLIENT_EXTRA; the client
# waits CLIENT_WAIT seconds, default 0: the engine launches nothing before
# its link is up and its gateway answered, and the memif peer is up first.
# memif_server_conf SOCK: the memif server's configuration on stdout
# (SERVER_DURATION, default 60s; SERVER_EXTRA lines, if any, at the end).
memif_server_conf() {
	cat <<CONF
mode server
cpu 0
duration ${SERVER_DURATION:-60s}
port net_memif0,role=server,socket=$1 198.18.0.1 198.18.0.2
client 198.18.1.2 4
server 198.18.2.1 1
listen 80 1
CONF
	[ -z "${SERVER_EXTRA:-}" ] || printf '%s\n' "$SERVER_EXTRA"
}
memif_pair() {
	local dir=$1 sock=$1/memif.sock
	memif_server_conf "$sock" >"$dir/server.conf"
	cat >"$dir/client.conf" <<CONF
mode client
cpu 1
duration ${CLIENT_DURATION:-5s}
cps ${CPS:-20k}
port net_memif0,role=client,socket=$sock 198.18.0.2 198.18.0.1
client 198.18.1.2 4
server 198.18.2.1 1
listen 80 1
slow_start 0
wait ${CLIENT_WAIT:-0}
${CLIENT_EXTRA:-}
CONF
}
