#!/usr/bin/env bash
# dperf's UDP packets-per-second mode (protocol udp, cc + keepalive): each
# of cc connections sends one datagram per interval, so udpTx per second is
# cc / interval (2000 / 100ms = 20k), each datagram answered.
. "$(dirname "$0")/lib.sh"

CPS=1k CLIENT_DURATION=4s CLIENT_WAIT=1 CLIENT_EXTRA="protocol udp
cc 2000
keepalive 100ms" SERVER_EXTRA="protocol udp" memif_pair "$T"
out=$("$BUILD/dperf" -t -c "$T/client.conf" 2>&1) || fail "refused: $out"
grep -q "cps: no effect with protocol udp, cc and keepalive" <<<"$out" || fail "no warning about cps: $out"
run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
c=$T/e2e-cli.log s=$T/e2e-srv.log

# Per second at full rate (wait 1, no slow start: seconds 2..4 are whole):
# udpTx = 20000 within 3%. On a busy 2-core box the worker may be
# descheduled (stallUs); the slots it missed then are counted in
# launchSkip, so a second with stalls is checked as udpTx + launchSkip.
awk '/^---- dperf/{exit} /^seconds /{s = $2}
     s {for (i = 1; i < NF; i++) { if ($i == "udpTx") tx[s] = $(i + 1); if ($i == "launchSkip") sk[s] = $(i + 1); if ($i == "stallUs") st[s] = $(i + 1) }}
     END {for (k = 1; k in tx; k++) print k, tx[k], sk[k], st[k]}' "$c" >"$T/tx.txt"
note "second udpTx launchSkip stallUs: $(tr '\n' ',' <"$T/tx.txt")"
awk '$1 >= 2 && $1 <= 4 { n++; v = $4 < 10000 ? $2 : $2 + $3
       if (v < 19400 || v > 20600) { print "second " $1 ": udpTx " $2 " launchSkip " $3 " stallUs " $4; bad = 1 }
       if ($4 < 10000) clean++ }
     END { if (n < 3) { print "only " n " seconds"; bad = 1 } exit bad }' "$T/tx.txt" ||
	fail "udpTx is not cc / interval = 20000 per second within 3%"
clean=$(awk '$1 >= 2 && $1 <= 4 && $4 < 10000' "$T/tx.txt" | wc -l)
note "$clean of 3 seconds without stalls (checked on udpTx alone)"

tx=$(total "$c" udpTx) srx=$(total "$s" udpRx) stx=$(total "$s" udpTx) rx=$(total "$c" udpRx)
note "client udpTx $tx, server udpRx $srx udpTx $stx, client udpRx $rx"
# The last burst the client queues as it stops may not reach the server
# (UDP has no connection to drain); everything else must, and be answered.
[ "$srx" -le "$tx" ] && [ $((tx - srx)) -le 64 ] || fail "server received $srx of $tx"
[ "$srx" = "$stx" ] || fail "server answered $stx of $srx"
[ $((stx - rx)) -le 200 ] || fail "client received $rx of $stx answers"
[ "$(total "$c" udpDrop)" = 0 ] && [ "$(total "$s" udpDrop)" = 0 ] || fail "udpDrop non-zero"

pass "$tx datagrams at 20k/s, every one answered"
