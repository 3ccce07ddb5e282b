#!/usr/bin/env bash
# dperf's neigh_ignore: our server on a tap port in a namespace answers no
# ARP request, so the kernel cannot resolve the server address and curl
# fails (the requests counted in arpDrop); once the namespace has a static
# neighbour entry for it, curl gets its answer. The gateway (the kernel)
# is still resolved: the answer goes out.
. "$(dirname "$0")/lib.sh"
command -v curl >/dev/null || fail "curl is not installed (scripts/install-deps.sh)"

NS=dperf-e2e-tapn
MAC=02:00:00:00:0a:01
make_ns $NS
# the server address is not the port's own: the kernel learns the port's
# address from our own ARP request for the gateway, never the server's
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 60s
port net_tap0,iface=dptapn0,mac=$MAC 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.10 1
listen 80 1
payload_size 200
neigh_ignore
CONF
start_primary e2e-tapn "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptapn0
ip -n $NS link set dptapn0 up
in_ns() { ip netns exec $NS "$@"; }
st() { jget "$(ctl -p e2e-tapn stats --json)" "$1"; }

in_ns curl -s --max-time 4 -o /dev/null http://198.18.0.10/ && fail "curl got an answer: the kernel resolved 198.18.0.10 although neigh_ignore is set"
[ "$(st arpDrop)" -ge 1 ] || fail "arpDrop $(st arpDrop) after the kernel's unanswered ARP requests (arpRx $(st arpRx))"
[ "$(st arpTx)" -ge 1 ] || fail "arpTx $(st arpTx): the gateway was not asked for"
drops=$(st arpDrop)
note "without a static entry: curl failed, arpRx $(st arpRx) arpDrop $drops arpTx $(st arpTx)"

in_ns ip neigh replace 198.18.0.10 lladdr $MAC dev dptapn0 nud permanent
in_ns curl -s --max-time 10 -o "$T/body" http://198.18.0.10/ || fail "curl failed with a static neighbour entry"
[ "$(stat -c %s "$T/body")" = 115 ] || fail "body of $(stat -c %s "$T/body") bytes, expected 200 - 85"
[ "$(st http2XX)" = 1 ] || fail "http2XX $(st http2XX) after one answered curl"
ctl -p e2e-tapn stop >/dev/null
wait_exit "$PID_e2e_tapn" 15 || fail "the server exited with an error"
pass "no ARP answer (arpDrop $drops); with a static neighbour entry, curl answered"
