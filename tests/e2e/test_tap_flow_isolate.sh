#!/usr/bin/env bash
# dperf's flow_isolate over DPDK's net_tap (which has rte_flow isolated
# mode) in a namespace: a server with two workers, one address each; the
# rules bring ARP and each address's traffic to its worker's queue, so
# curl gets an answer from both addresses. A frame the rules do not match
# (to 198.18.0.99, which the namespace sends to our MAC) never reaches us
# (otherRx stays 0), while the same server without flow_isolate counts it
# in otherRx.
# net_tap's rules are the kernel's tc: the multiq qdisc and the flower
# classifier. A kernel without them (CONFIG_NET_SCH_MULTIQ,
# CONFIG_NET_CLS_FLOWER) cannot carry the rules; there the test checks the
# refusal instead: one line naming the port and the rule, exit 1, nothing
# left, and says that the end-to-end part did not run.
. "$(dirname "$0")/lib.sh"
for tool in curl ping tc; do command -v $tool >/dev/null || fail "$tool is not installed (scripts/install-deps.sh)"; done

# the kernel's tc can hold net_tap's rules: multiq and flower on a tap device
tc_ok() {
	local ns=dperf-e2e-tapi-probe rc=0
	make_ns $ns
	ip -n $ns tuntap add dev probe0 mode tap
	ip netns exec $ns tc qdisc add dev probe0 root handle 1: multiq 2>/dev/null &&
		ip netns exec $ns tc qdisc add dev probe0 ingress 2>/dev/null &&
		ip netns exec $ns tc filter add dev probe0 ingress protocol ip flower dst_ip 198.18.0.1 \
			action mirred egress redirect dev probe0 2>/dev/null || rc=1
	ip netns del $ns
	return $rc
}

NS=dperf-e2e-tapi
MAC=02:00:00:00:0b:01
make_ns $NS
in_ns() { ip netns exec $NS "$@"; }

# serve NAME CPUS EXTRA: a server with one address per core on dptapi0
serve() {
	local n
	n=$(wc -w <<<"$2")
	cat >"$T/$1.conf" <<CONF
mode server
cpu $2
duration 60s
port net_tap0,iface=dptapi0,mac=$MAC 198.18.0.1 198.18.0.3
client 198.18.0.3 1
server 198.18.0.1 $n
listen 80 1
payload_size 200
$3
CONF
	start_primary "e2e-tapi-$1" "$T/$1.conf" $NS
	ip -n $NS addr add 198.18.0.3/24 dev dptapi0 2>/dev/null || true
	ip -n $NS link set dptapi0 up
	in_ns ip neigh replace 198.18.0.99 lladdr $MAC dev dptapi0 nud permanent
}
st() { jget "$(ctl -p "e2e-tapi-$1" stats --json)" "$2"; }
# probe NAME: 3 pings to an address the rules do not cover; they reach
# our MAC (the static entry) and nothing answers
probe() {
	in_ns ping -c 3 -i 0.2 -W 1 198.18.0.99 >/dev/null 2>&1 && fail "$1: 198.18.0.99 answered"
	sleep 0.5 # the counters are published each tick
}

if ! tc_ok; then
	cat >"$T/iso.conf" <<CONF
mode server
cpu 0
duration 60s
port net_tap0,iface=dptapi0 198.18.0.1 198.18.0.3
client 198.18.0.3 1
server 198.18.0.1 1
flow_isolate
CONF
	rc=0; out=$(ip netns exec $NS "$BUILD/dperf" -c "$T/iso.conf" -p e2e-tapi-iso 2>&1) || rc=$?
	last=$(printf '%s\n' "$out" | tail -1)
	[ $rc = 1 ] && grep -q "iso.conf:7: flow_isolate: port net_tap0 (line 4) refused the rule for ARP: " <<<"$last" ||
		fail "flow_isolate on a kernel without multiq/flower: exit $rc: $last"
	[ ! -e /var/run/dpdk/e2e-tapi-iso ] || fail "flow_isolate refused: the runtime directory was left"
	note "this kernel has no tc multiq/flower (net_tap's rte_flow): the end-to-end part did not run"
	pass "refused in one line on a kernel without net_tap's rte_flow: $last"
	exit 0
fi

serve iso "0 1" flow_isolate
for a in 198.18.0.1 198.18.0.2; do
	in_ns curl -s --max-time 10 -o "$T/body" http://$a/ || fail "flow_isolate: curl to $a failed"
	[ "$(stat -c %s "$T/body")" = 115 ] || fail "flow_isolate: a body of $(stat -c %s "$T/body") bytes from $a"
done
[ "$(st iso http2XX)" = 2 ] || fail "flow_isolate: http2XX $(st iso http2XX) after 2 answered curls"
probe iso
[ "$(st iso otherRx)" = 0 ] || fail "flow_isolate: otherRx $(st iso otherRx): a frame no rule matches reached the server"
note "flow_isolate: curl to both addresses answered, arpRx $(st iso arpRx), otherRx 0 after the probe"
ctl -p e2e-tapi-iso stop >/dev/null
wait_exit "$PID_e2e_tapi_iso" 15 || fail "flow_isolate: the server exited with an error"

serve plain "0" ""
probe plain
[ "$(st plain otherRx)" -ge 3 ] || fail "without flow_isolate: otherRx $(st plain otherRx) after 3 pings to 198.18.0.99 (the probe does not reach the server)"
note "without flow_isolate: otherRx $(st plain otherRx) after the probe"
ctl -p e2e-tapi-plain stop >/dev/null
wait_exit "$PID_e2e_tapi_plain" 15 || fail "the plain server exited with an error"
pass "isolated: both workers' addresses answered through the rules, an unmatched frame never arrived (it does without flow_isolate)"
