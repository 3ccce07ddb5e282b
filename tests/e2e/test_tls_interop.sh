#!/usr/bin/env bash
# The TLS room (primary/tls/) against independent peers, a kernel socket
# standing in for our TCP (tests/e2e/tls_bridge.c), in a namespace over
# 198.18.0.0/15: curl --cacert, openssl s_client (TLS 1.2 and 1.3, a
# session saved and resumed) and ab over HTTPS against our server side; our client side
# against nginx with ssl (TLS 1.2 and 1.3, tickets, session IDs, none):
# every handshake completes, resumed exactly when asked, nginx's access
# log has a line per request and its error log no TLS error.
. "$(dirname "$0")/lib.sh"
command -v nginx >/dev/null || fail "nginx is not installed (scripts/install-deps.sh)"
BRIDGE=$BUILD/tests/tls_bridge CERT=$ROOT/build/tls/test-cert.pem KEY=$ROOT/build/tls/test-key.pem
[ -x "$BRIDGE" ] || fail "$BRIDGE missing (make $BRIDGE)"
[ -s "$KEY" ] || fail "$KEY missing (scripts/tls-cert.sh)"

NS=dperf-e2e-tls
make_ns $NS
ip -n $NS addr add 198.18.0.1/24 dev lo
in_ns() { ip netns exec $NS "$@"; }

# ---- our server side: curl, then s_client new and resumed, TLS 1.2 and 1.3
BODY="hello over tls from dperf-live"
AB_N=20
bg in_ns timeout 60 "$BRIDGE" server 198.18.0.1 8443 "$CERT" "$KEY" tickets $((5 + AB_N)) "$BODY" >"$T/server.log" 2>&1
SRV=$LAST_PID
listening() { grep -q '^listening' "$T/server.log"; }
wait_until 10 listening || fail "tls_bridge server did not start: $(cat "$T/server.log")"
got=$(in_ns curl -sS --max-time 10 --cacert "$CERT" --resolve dperf.test:8443:198.18.0.1 https://dperf.test:8443/) ||
	fail "curl --cacert failed"
[ "$got" = "$BODY" ] || fail "curl got \"$got\", expected \"$BODY\""
for v in 1_2 1_3; do
	for run in new reused; do
		if [ $run = new ]; then sess=(-sess_out "$T/sess$v"); else sess=(-sess_in "$T/sess$v"); fi
		printf 'GET / HTTP/1.1\r\nHost: dperf.test\r\n\r\n' |
			in_ns timeout 10 openssl s_client -connect 198.18.0.1:8443 -tls$v -servername dperf.test \
				-CAfile "$CERT" -verify_return_error -ign_eof "${sess[@]}" >"$T/s_client_${v}_$run.log" 2>&1 ||
			fail "openssl s_client -tls$v ($run) failed: $(tail -5 "$T/s_client_${v}_$run.log")"
		want="New"; [ $run = reused ] && want="Reused"
		grep -q "^$want, TLSv${v/_/.}" "$T/s_client_${v}_$run.log" ||
			fail "s_client -tls$v ($run): no \"$want, TLSv${v/_/.}\": $(grep -E '^(New|Reused)' "$T/s_client_${v}_$run.log")"
		grep -q "Verify return code: 0 (ok)" "$T/s_client_${v}_$run.log" || fail "s_client -tls$v: certificate not verified"
		grep -qF "$BODY" "$T/s_client_${v}_$run.log" || fail "s_client -tls$v ($run): body missing"
	done
done
# ab over HTTPS: a connection per request, every one answered
in_ns timeout 30 ab -q -n $AB_N https://198.18.0.1:8443/ >"$T/ab.log" 2>&1 || fail "ab: $(tail -5 "$T/ab.log")"
grep -qE "^Complete requests: +$AB_N$" "$T/ab.log" || fail "ab: $(grep -E 'requests' "$T/ab.log")"
grep -qE "^Failed requests: +0$" "$T/ab.log" || fail "ab: $(grep -E 'Failed' "$T/ab.log")"
# (ab counts a request the server closed unanswered as complete, not failed:
# the bodies' bytes are what show every one was answered)
grep -qE "^HTML transferred: +$((AB_N * ${#BODY})) bytes$" "$T/ab.log" ||
	fail "ab: $(grep -E 'HTML transferred' "$T/ab.log"), expected $((AB_N * ${#BODY})) bytes"
wait "$SRV" || fail "tls_bridge server: $(cat "$T/server.log")"
[ "$(grep -c ' done ' "$T/server.log")" = $((5 + AB_N)) ] || fail "server: $(cat "$T/server.log")"
[ "$(grep -c ' done resumed 1 ' "$T/server.log")" = 2 ] || fail "server: not 2 resumed: $(cat "$T/server.log")"
note "server side: curl, 4 s_client (2 resumed, TLS 1.2 and 1.3) and $AB_N ab requests over HTTPS, all done"

# ---- our client side against nginx with ssl
nginx_start $NS 443 info <<CONF
    access_log $T/nginx/access.log;
    server {
        listen 198.18.0.1:443 ssl;
        ssl_certificate $CERT;
        ssl_certificate_key $KEY;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:SSL:1m;
        ssl_session_tickets on;
        location / { return 200 "hello from nginx over tls\n"; }
    }
CONF
total=0
for v in 12 13; do
	for r in tickets ids none; do
		in_ns timeout 30 "$BRIDGE" client 198.18.0.1 443 $v $r 3 dperf.test "$CERT" >"$T/client_${v}_$r.log" 2>&1 ||
			fail "client TLS $v $r: $(cat "$T/client_${v}_$r.log")"
		grep -q "version TLSv1.${v#1} " "$T/client_${v}_$r.log" || fail "client $v $r: $(cat "$T/client_${v}_$r.log")"
		[ "$(grep -c ' done .* http 200 ' "$T/client_${v}_$r.log")" = 3 ] || fail "client $v $r: $(cat "$T/client_${v}_$r.log")"
		want=2; [ $r = none ] && want=0
		[ "$(grep -c ' resumed 1 ' "$T/client_${v}_$r.log")" = $want ] ||
			fail "client $v $r: not $want resumed: $(cat "$T/client_${v}_$r.log")"
		total=$((total + 3))
	done
done
logged() { [ "$(wc -l <"$T/nginx/access.log")" -ge "$1" ]; }
wait_until 5 logged $total || true
lines=$(wc -l <"$T/nginx/access.log")
[ "$lines" = $total ] || fail "nginx access log $lines lines, $total requests answered"
if grep -iE "ssl|handshake" "$T/nginx/error.log" | grep -v "signal process started"; then
	fail "nginx's error log has TLS errors"
fi
note "client side: $total requests to nginx over TLS 1.2 and 1.3, resumed by tickets and IDs, $lines access log lines"
pass
