#!/usr/bin/env bash
# Bad input: one clear line, exit 2, nothing started. Covers unknown
# keyword, bad number, bad address, missing port, core/address mismatch,
# a vxlan line against the cores, a bad bond, device arguments the driver
# refuses, a bond of memif members, a bond member the driver refuses,
# flow_isolate on memif (no isolated mode), a
# memif client without its server, too few hugepages, a busy instance name, and
# secondaries with no primary. (Device refusals come after EAL's own log
# lines: there the last line names the config line.)
. "$(dirname "$0")/lib.sh"

good() {
	cat <<CONF
mode client
cpu 1
duration 5s
cps 1k
port net_memif0,role=client,socket=$T/m.sock 198.18.0.2 198.18.0.1
client 198.18.1.2 4
server 198.18.2.1 1
listen 80 1
CONF
}
# expect_error NAME EXPECTED-SUBSTRING: run -t and a real start on $T/NAME.conf
expect_error() {
	local f=$T/$1.conf rc=0 out
	for mode in -t ""; do
		rc=0
		out=$("$BUILD/dperf" $mode -c "$f" -p e2e-bad 2>&1) || rc=$?
		[ $rc = 2 ] || fail "$1: exit $rc, expected 2 ($out)"
		[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "$1: more than one line: $out"
		grep -qF -- "$2" <<<"$out" || fail "$1: '$out' does not contain '$2'"
	done
	[ ! -e /var/run/dpdk/e2e-bad ] || fail "$1: a runtime directory was created"
	note "$1: $out"
}

good >"$T/ok.conf"
"$BUILD/dperf" -t -c "$T/ok.conf" >/dev/null || fail "the good config does not pass -t"

{ good; echo "frobnicate 1"; } >"$T/unknown.conf"
expect_error unknown "unknown.conf:9: frobnicate: unknown keyword"
good | sed 's/^cps 1k/cps 12x/' >"$T/number.conf"
expect_error number "number.conf:4: cps:"
good | sed 's/198.18.0.2 198.18.0.1/198.18.0.999 198.18.0.1/' >"$T/address.conf"
expect_error address "address.conf:5: port:"
good | grep -v '^port' >"$T/noport.conf"
expect_error noport "port: missing"
good | sed 's/^cpu 1/cpu 0 1/' >"$T/cores.conf"
expect_error cores "cores.conf:7: server:"
# a dperf rule: one local VTEP per worker core of the port
{ good; echo "vxlan 1 02:00:00:00:00:01 02:00:00:00:00:02 198.18.0.2 2 198.18.0.1 1"; } >"$T/vxlan.conf"
expect_error vxlan "vxlan.conf:9: vxlan: 2 local VTEP addresses for 1 worker cores on this port (expected one per core)"
"$BUILD/dperf" -c "$T/missing.conf" >/dev/null 2>&1 && fail "a missing file was accepted"
# Bonded ports: a bad bond is one line naming what is wrong in it.
good | sed 's|^port [^ ]*|port bond4:3(net_af_packet0,iface=a,net_af_packet1,iface=b)|' >"$T/bondpolicy.conf"
expect_error bondpolicy "bondpolicy.conf:5: port: bad bond policy 3 (expected 0 l2, 1 l23 or 2 l34"
good | sed 's|^port [^ ]*|port bond0:0(net_af_packet0,iface=a,flags)|' >"$T/bondmember.conf"
expect_error bondmember "bondmember.conf:5: port: bad member \"flags\" in bond"

# What the tuples and cores sustain, one rule for the config and for
# 'dperf-ctl set' (cps 200k was accepted here, then refused by set cps).
good | sed 's/^cps 1k/cps 200k/' >"$T/cps_tuples.conf"
expect_error cps_tuples "cps_tuples.conf:4: cps: 200000: beyond what 1 cores and 262140 client tuples sustain (expected at most 131070"
{ good; echo "cc 2m"; echo keepalive; } >"$T/cc_tuples.conf"
expect_error cc_tuples "cc_tuples.conf:9: cc: 2000000 exceeds the 262140 client tuples"
# Rules that only failed once EAL had started: messages beyond one
# segment, IPv6 client ranges of different /96 prefixes.
{ good; echo "protocol tcp"; echo "payload_size 1000"; echo "pipeline 2"; } >"$T/pipeline.conf"
expect_error pipeline "pipeline.conf:11: pipeline: messages of 2000 (requests) and 1000 (response) bytes exceed mss 1460"
cat >"$T/v6prefix.conf" <<CONF
mode client
cpu 0 1
cps 1k
port net_memif0,role=client,socket=$T/m0.sock 2001:db8::2 2001:db8::1
port net_memif1,role=client,socket=$T/m1.sock 2001:db8:1::2 2001:db8:1::1
client 2001:db8:a::1 4
client 2001:db8:b::1 4
server 2001:db8:2::1 1
server 2001:db8:2::2 1
CONF
expect_error v6prefix "v6prefix.conf:7: client: IPv6 client ranges must share their first 12 bytes"
{ good | sed 's/^client 198.18.1.2 4/client 198.18.1.2 250/'; echo "listen 80 250"; echo "cc 4000m"; echo keepalive; } | grep -v "^listen 80 1$" >"$T/cc_mem.conf"
rc=0; out=$("$BUILD/dperf" -c "$T/cc_mem.conf" -p e2e-bad 2>&1) || rc=$?
[ $rc = 2 ] && grep -q "cc 4000000000 needs about [0-9]* MB for connection state" <<<"$out" || fail "cc beyond memory: $rc $out"
note "cc beyond memory: $out"

# Device arguments the driver refuses (memif rings go up to 2^14): the
# driver says why, our last line names the config line; nothing is left.
good | sed "s|socket=$T/m.sock|socket=$T/m.sock,rsize=15|" >"$T/driver.conf"
rc=0; out=$("$BUILD/dperf" -c "$T/driver.conf" -p e2e-bad 2>&1) || rc=$?
[ $rc != 0 ] || fail "refused driver arguments: exit 0"
last=$(printf '%s\n' "$out" | tail -1)
grep -q "driver.conf:5: port: the net_memif0 driver refused '.*rsize=15' (its reason is in the log above)" <<<"$last" ||
	fail "refused driver arguments: $last"
grep -q "Invalid ring size" <<<"$out" || fail "refused driver arguments: the driver's reason is missing: $out"
[ ! -e /var/run/dpdk/e2e-bad ] || fail "refused driver arguments: the runtime directory was left"
note "refused driver arguments: $last"
# A memif client with no server on its socket: says which line and why.
rc=0; out=$("$BUILD/dperf" -c "$T/ok.conf" -p e2e-bad 2>&1) || rc=$?
last=$(printf '%s\n' "$out" | tail -1)
[ $rc != 0 ] && grep -q "ok.conf:5: port: cannot start net_memif0: .* (is its memif server, role=server on the same socket, running?)" <<<"$last" ||
	fail "memif client without server: exit $rc: $last"
[ ! -e /var/run/dpdk/e2e-bad ] || fail "memif client without server: the runtime directory was left"
note "memif client without server: $last"

# A bond whose members refuse its MAC address (DPDK 22.11's memif), and
# a bond member the driver refuses: the last line names the config line
# and the reason; nothing is left.
good | sed "s|^port [^ ]*|port bond0:0(net_memif0,socket=$T/b0.sock,net_memif1,socket=$T/b1.sock)|" >"$T/bondmemif.conf"
rc=0; out=$("$BUILD/dperf" -c "$T/bondmemif.conf" -p e2e-bad 2>&1) || rc=$?
last=$(printf '%s\n' "$out" | tail -1)
[ $rc != 0 ] && grep -q "bondmemif.conf:5: port: cannot start net_bonding0: .* (DPDK's memif refuses the MAC address a bond gives its members: use net_af_packet members" <<<"$last" ||
	fail "bond of memif members: exit $rc: $last"
[ ! -e /var/run/dpdk/e2e-bad ] || fail "bond of memif members: the runtime directory was left"
note "bond of memif members: $last"
good | sed "s|^port [^ ]*|port bond0:0(net_af_packet0,iface=dperf-e2e-none0,net_af_packet1,iface=dperf-e2e-none1)|" >"$T/bondnodev.conf"
rc=0; out=$("$BUILD/dperf" -c "$T/bondnodev.conf" -p e2e-bad 2>&1) || rc=$?
last=$(printf '%s\n' "$out" | tail -1)
[ $rc != 0 ] && grep -q "bondnodev.conf:5: port: the net_af_packet0 driver refused bond member 'net_af_packet0,iface=dperf-e2e-none0' (its reason is in the log above)" <<<"$last" ||
	fail "bond member without its interface: exit $rc: $last"
[ ! -e /var/run/dpdk/e2e-bad ] || fail "bond member without its interface: the runtime directory was left"
note "bond member without its interface: $last"

# flow_isolate on a device without rte_flow isolated mode (memif): one
# line naming the keyword's line, the port and its driver; exit 1, before
# any port is configured, nothing left.
{ good; echo flow_isolate; } >"$T/isolate.conf"
"$BUILD/dperf" -t -c "$T/isolate.conf" >/dev/null || fail "flow_isolate: refused by -t (the device is only known at start)"
rc=0; out=$("$BUILD/dperf" -c "$T/isolate.conf" -p e2e-bad 2>&1) || rc=$?
last=$(printf '%s\n' "$out" | tail -1)
[ $rc = 1 ] && grep -q "isolate.conf:9: flow_isolate: port net_memif0 (line 5, driver net_memif) cannot isolate its flows: .* (expected a device whose driver has rte_flow isolated mode, such as mlx5 or net_tap, or no \"flow_isolate\" line)" <<<"$last" ||
	fail "flow_isolate on memif: exit $rc: $last"
[ "$(grep -c "flow_isolate" <<<"$out")" = 1 ] && ! grep -q "cannot start\|driver refused" <<<"$out" ||
	fail "flow_isolate on memif: more than the one line: $out"
[ ! -e /var/run/dpdk/e2e-bad ] || fail "flow_isolate on memif: the runtime directory was left"
note "flow_isolate on memif: $last"

# Too few hugepages: refused before EAL starts, saying how much is needed.
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
saved=$(cat $hp)
echo 0 >$hp
rc=0; out=$("$BUILD/dperf" -c "$T/ok.conf" -p e2e-bad 2>&1) || rc=$?
echo "$saved" >$hp
[ $rc = 2 ] || fail "no hugepages: exit $rc ($out)"
grep -q "not enough hugepages: .* needs about [0-9]* MB, 0 MB are free" <<<"$out" || fail "no hugepages: $out"
[ ! -e /var/run/dpdk/e2e-bad ] || fail "no hugepages: a runtime directory was created"
note "no hugepages: $out"

# Secondaries with no primary.
rc=0; out=$("$SECONDARY_BUILD/dperf-ctl" -p e2e-none status 2>&1) || rc=$?
[ $rc = 3 ] && grep -q "no dperf primary named 'e2e-none'" <<<"$out" || fail "dperf-ctl without primary: $rc $out"
rc=0; out=$("$SECONDARY_BUILD/dperf-top" -p e2e-none --once 2>&1) || rc=$?
[ $rc = 3 ] || fail "dperf-top without primary: $rc $out"
rc=0; out=$("$SECONDARY_BUILD/dperf-ctl" -p e2e-none set cps 1k 2>&1) || rc=$?
[ $rc = 3 ] || fail "dperf-ctl set without primary: $rc $out"

# A name already in use is refused.
CPS=1k memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
rc=0; out=$("$BUILD/dperf" -c "$T/server.conf" -p e2e-srv 2>&1) || rc=$?
[ $rc = 2 ] && grep -q "already running" <<<"$out" || fail "duplicate name: $rc $out"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 15
pass "every bad input refused with one line"
