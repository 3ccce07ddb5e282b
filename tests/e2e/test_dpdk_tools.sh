#!/usr/bin/env bash
# DPDK's own tools against a running primary: dpdk-telemetry.py reads our
# /dperf/stats and /dperf/state, dpdk-proc-info shows our port, and
# dpdk-dumpcap captures our traffic to a pcapng whose packet count matches
# the engine's own count over the capture window.
. "$(dirname "$0")/lib.sh"
for t in dpdk-telemetry.py dpdk-dumpcap dpdk-proc-info; do command -v $t >/dev/null || fail "$t is not installed (dpdk package)"; done

CPS=2k CLIENT_DURATION=30s memif_pair "$T"
start_primary e2e-srv "$T/server.conf"
start_primary e2e-cli "$T/client.conf"
answered() { [ "$(stat_of e2e-cli http2XX)" -gt 0 ]; }
wait_until 15 answered || fail "no answer counted 15 s after the start"

# DPDK's telemetry socket listens with a backlog of 1: a connection made
# while the previous one is still being torn down can be refused; retry
# until the command's answer comes (10 s at most).
tel_once() {
	out=$(echo "$1" | timeout 10 dpdk-telemetry.py -f e2e-cli 2>&1) || true
	grep -q "^{\"$1\"" <<<"$out"
}
tel() { wait_until 10 tel_once "$1"; }
tel /dperf/stats || fail "dpdk-telemetry.py: $out"
/usr/bin/python3 - "$out" <<'PY' || fail "telemetry /dperf/stats: $out"
import json, sys
# The tool prints a banner, then one JSON object per command.
objs = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")]
st = [o["/dperf/stats"] for o in objs if "/dperf/stats" in o][0]
# Traffic flows (answers counted), and at most the requests in flight are
# unanswered. (Was "A and B or C": it passed with no traffic at all.)
assert st["http2XX"] > 0 and 0 <= st["httpGet"] - st["http2XX"] < 100, st
PY
tel /dperf/state || fail "dpdk-telemetry.py: $out"
grep -q '"state": "running"' <<<"$out" || grep -q '"state":"running"' <<<"$out" || fail "telemetry /dperf/state: $out"
note "dpdk-telemetry.py: /dperf/stats and /dperf/state answered"

out=$(dpdk-proc-info --file-prefix=e2e-cli --no-pci --log-level=error -- --stats 2>&1) || fail "dpdk-proc-info: $out"
grep -q "RX-packets" <<<"$out" || fail "dpdk-proc-info shows no port stats: $out"
note "dpdk-proc-info: port statistics shown"

before=$(jget "$(ctl -p e2e-cli stats --json)" pktTx)
dpdk-dumpcap --file-prefix=e2e-cli -i 0 -a duration:2 -w "$T/cap.pcapng" -q >"$T/dumpcap.log" 2>&1 || fail "dpdk-dumpcap: $(tail -3 "$T/dumpcap.log")"
after=$(jget "$(ctl -p e2e-cli stats --json)" pktTx)
n=$(/usr/bin/python3 - "$T/cap.pcapng" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
off = n = 0
while off + 12 <= len(data):
    btype, blen = struct.unpack_from("<II", data, off)
    if blen < 12:
        break
    if btype == 6:  # enhanced packet block
        n += 1
    off += blen
print(n)
PY
)
sent=$((after - before))
note "dumpcap captured $n packets; the client sent $sent and received about as many in the window"
# The capture sees both directions over 2 of the (longer) measured seconds.
[ "$n" -gt $((sent / 2)) ] && [ "$n" -lt $((sent * 3)) ] || fail "capture has $n packets, the engine sent $sent in the window"
ctl -p e2e-cli stop >/dev/null
wait_exit "$PID_e2e_cli" 20 || fail "client exit status"
ctl -p e2e-srv stop >/dev/null
wait_exit "$PID_e2e_srv" 20 || fail "server exit status"
pass "telemetry, proc-info, dumpcap ($n packets)"
