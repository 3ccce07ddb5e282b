#!/usr/bin/env bash
# The peer's MSS option (issue 31 item 8): the kernel in a namespace
# announces MSS 536 (a route's advmss); our server's answer of 4,000 bytes
# reaches curl whole in segments of at most 536 bytes (scapy watches the
# link), where it went in 1,460-byte ones before.
. "$(dirname "$0")/lib.sh"
/usr/bin/python3 -c "import scapy" 2>/dev/null || fail "python3-scapy is not installed (scripts/install-deps.sh)"
command -v curl >/dev/null || fail "curl is not installed"

NS=dperf-e2e-mss
make_ns $NS
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 60s
$(tap_server_lines dptap5)
payload_size 4000
CONF
start_primary e2e-mss "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptap5
ip -n $NS link set dptap5 up
ip -n $NS route replace 198.18.0.0/24 dev dptap5 advmss 536
ip netns exec $NS /usr/bin/python3 - "$T" >"$T/mss.log" 2>&1 <<'PY' || fail "$(tail -3 "$T/mss.log")"
import subprocess, sys, time
from scapy.all import AsyncSniffer, TCP, conf
conf.verb = 0
sn = AsyncSniffer(iface="dptap5", filter="tcp src port 80")
sn.start()
time.sleep(0.5)
body = sys.argv[1] + "/body"
subprocess.run(["curl", "-s", "-m", "10", "-o", body, "http://198.18.0.1/"], check=True)
time.sleep(0.5)
segs = [len(p[TCP].payload) for p in sn.stop() if TCP in p]
print("segments", len([n for n in segs if n]), "largest", max(segs))
sys.exit(0 if segs and 0 < max(segs) <= 536 else 1)
PY
note "$(cat "$T/mss.log")"
[ "$(stat -c %s "$T/body")" -gt 3800 ] || fail "curl got $(stat -c %s "$T/body") bytes"
ctl -p e2e-mss stop >/dev/null
wait_exit "$PID_e2e_mss" 20 || fail "server exit status"
pass "answer in segments of at most the peer's MSS, 536: $(cat "$T/mss.log")"
