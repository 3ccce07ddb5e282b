#!/usr/bin/env bash
# UDP: each request datagram answered; both sides count the same.
. "$(dirname "$0")/lib.sh"

CPS=20k CLIENT_DURATION=4s CLIENT_EXTRA="protocol udp" SERVER_EXTRA="protocol udp" memif_pair "$T"
run_pair e2e-srv e2e-cli "$T/server.conf" "$T/client.conf"
c=$T/e2e-cli.log s=$T/e2e-srv.log
tx=$(total "$c" udpTx) srx=$(total "$s" udpRx) stx=$(total "$s" udpTx) rx=$(total "$c" udpRx)
note "client udpTx $tx, server udpRx $srx udpTx $stx, client udpRx $rx"
[ "$tx" -ge 50000 ] || fail "client sent only $tx datagrams"
# Exactly: after it stops sending, the client keeps receiving (up to
# 0.5 s) until every datagram is answered, so its totals equal what the
# server received and sent (answers in flight at the stop were lost).
[ "$srx" = "$tx" ] || fail "server received $srx of $tx"
[ "$srx" = "$stx" ] || fail "server answered $stx of $srx"
[ "$rx" = "$stx" ] || fail "client received $rx of $stx answers"
[ "$(total "$c" udpDrop)" = 0 ] && [ "$(total "$s" udpDrop)" = 0 ] || fail "udpDrop non-zero"
pass "$tx datagrams, $rx answers"
