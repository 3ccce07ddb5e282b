#!/usr/bin/env bash
# Hostile peers: while wrk loads our server over a tap port, scapy sends
# malformed, unexpected and flooding packets from the same namespace. The
# engine survives, counts each kind under its counter, and wrk sees no error.
. "$(dirname "$0")/lib.sh"
/usr/bin/python3 -c "import scapy" 2>/dev/null || fail "python3-scapy is not installed (scripts/install-deps.sh)"
command -v wrk >/dev/null || fail "wrk is not installed"

NS=dperf-e2e-hostile
make_ns $NS
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
$(tap_server_lines dptap3)
keepalive
CONF
start_primary e2e-hostile "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptap3
ip -n $NS link set dptap3 up
ip netns exec $NS ping -c 2 -i 0.2 -W 2 198.18.0.1 >/dev/null || fail "no ping answer"
mac=$(ip -n $NS neigh show 198.18.0.1 | awk '{print $5}')
st() { jget "$(ctl -p e2e-hostile stats --json)" "$1"; }
bad0=$(st badRx) other0=$(st otherRx) drop0=$(st tcpDrop) ok0=$(st http2XX)

ip netns exec $NS wrk -t 1 -c 50 -d 8s http://198.18.0.1/ >"$T/wrk.log" 2>&1 &
WRK=$!
# The hostile frames go in while wrk is being answered.
loaded() { [ "$(st http2XX)" -gt "$ok0" ]; }
wait_until 5 loaded || fail "wrk was not answered 5 s after its start: $(tail -3 "$T/wrk.log")"
ip netns exec $NS /usr/bin/python3 "$(dirname "$0")/hostile.py" dptap3 "$mac" >"$T/sent.json" 2>"$T/scapy.err" || fail "scapy: $(tail -3 "$T/scapy.err")"
wait $WRK || fail "wrk failed: $(tail -3 "$T/wrk.log")"
sleep 1 # (not readiness: the engine gets a second to take the last frames before its counters are read)
kill -0 "$PID_e2e_hostile" || fail "the engine died"
note "sent: $(cat "$T/sent.json")"
grep -q "Socket errors" "$T/wrk.log" && fail "wrk: $(grep 'Socket errors' "$T/wrk.log")"
grep -q "Non-2xx" "$T/wrk.log" && fail "wrk: $(grep 'Non-2xx' "$T/wrk.log")"
reqs=$(awk '/requests in/{print $1}' "$T/wrk.log")
[ "$reqs" -gt 1000 ] || fail "wrk completed only $reqs requests"

bad=$(( $(st badRx) - bad0 )) other=$(( $(st otherRx) - other0 )) drop=$(( $(st tcpDrop) - drop0 ))
want_bad=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(d[k] for k in ("bad_ihl","bad_version","tot_len_too_big","tot_len_below_ihl","bad_ip_csum","bad_tcp_csum","fragment","fragment_tail","tcp_doff_small","tcp_doff_big","truncated_tcp","bad_udp_len","runt_frame")))' "$T/sent.json")
note "badRx +$bad (malformed sent $want_bad), otherRx +$other, tcpDrop +$drop, wrk $reqs requests, 0 errors"
[ "$bad" = "$want_bad" ] || fail "badRx grew by $bad, $want_bad malformed packets were sent"
[ "$other" -ge 100 ] || fail "otherRx grew by $other, at least 100 unexpected packets were sent"
[ "$drop" -ge 100 ] || fail "tcpDrop grew by $drop, at least 100 stray segments were sent"
[ "$(st rstTx)" -ge 20 ] || fail "no RST answered the SYNs to a closed port"
# Still serving after all that.
ip netns exec $NS curl -s -m 5 -o /dev/null -w '%{http_code}' http://198.18.0.1/ | grep -q 200 || fail "no answer after the attack"
ctl -p e2e-hostile stop >/dev/null
wait_exit "$PID_e2e_hostile" 20 || fail "server exit status"
pass "survived; every malformed packet counted in badRx"
