#!/usr/bin/env bash
# Pipelined HTTPS requests behind answers over many segments (issue 36
# item 2): our HTTPS server (protocol https, payload_size 1m: 1,000,000
# bytes an answer, 685 segments) on a tap port, `openssl s_client` in a
# namespace writing two GETs in one TLS write (one record), for TLS 1.2
# and TLS 1.3: exactly the two answers come back, byte for byte (sha256
# of the 2,000,000 bytes against ours), httpGet and http2XX +2 each time,
# no pipeFull, httpErr, skErr or tlsErr. The same queue as over plain
# HTTP (test_tap_pipeline): the second answer begins once the first is
# acknowledged; before, each answer was written whole into the
# connection's records at once, and a fifth pipelined 1 MB answer did not
# fit (tlsErr, counted in httpGet and never answered).
. "$(dirname "$0")/lib.sh"
command -v openssl >/dev/null || fail "openssl is not installed (scripts/install-deps.sh)"
CERT=$ROOT/build/tls/test-cert.pem KEY=$ROOT/build/tls/test-key.pem
[ -s "$KEY" ] || fail "$KEY missing (make build/tls/test-key.pem)"

NS=dperf-e2e-tlspl
make_ns $NS
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
port net_tap0,iface=dptlspl 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.1 1
listen 443 1
keepalive
payload_size 1m
protocol https
tls_cert $CERT
tls_key $KEY
CONF
start_primary e2e-tlspl "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptlspl
ip -n $NS link set dptlspl up
st() { jget "$(ctl -p e2e-tlspl stats --json)" "$1"; }

# Our answer (http.h), as test_tap_pipeline.sh builds it: an 85-byte head
# padded with 'a', the body all 'a'; two of them.
python3 - "$T/want" <<'PY'
import sys
SIZE = 1000000  # payload_size 1m
head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: keep-alive\r\n" % (SIZE - 85)
head += b"X-Pad: " + b"a" * (85 - len(head) - 11) + b"\r\n\r\n"
want = head + b"a" * (SIZE - 85)
assert len(want) == SIZE
open(sys.argv[1], "wb").write(want * 2)
PY
want_sum=$(sha256sum "$T/want" | cut -d' ' -f1)

for v in 1_2 1_3; do
	g0=$(st httpGet) ok0=$(st http2XX)
	# both GETs in one write (one record); -quiet: only the plaintext on
	# stdout, and stdin's end does not close (the sleep keeps it open
	# while the answers come; timeout ends s_client, status 124)
	rc=0
	(printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n'; sleep 8) |
		ip netns exec $NS timeout 12 openssl s_client -quiet -tls$v -connect 198.18.0.1:443 \
			-CAfile "$CERT" -servername dperf.test -verify_return_error \
			>"$T/got$v" 2>"$T/s_$v.log" || rc=$?
	[ $rc = 0 ] || [ $rc = 124 ] || fail "openssl s_client -tls$v: status $rc: $(tail -5 "$T/s_$v.log")"
	got=$(stat -c %s "$T/got$v")
	got_sum=$(sha256sum "$T/got$v" | cut -d' ' -f1)
	note "TLS ${v/_/.}: $got bytes, sha256 ${got_sum:0:16} (expected 2000000, ${want_sum:0:16})"
	[ "$got" = 2000000 ] || fail "TLS ${v/_/.}: $got bytes, expected two answers of 1000000: $(head -c 120 "$T/got$v" | od -c | head -3)"
	[ "$got_sum" = "$want_sum" ] || fail "TLS ${v/_/.}: the two answers differ from ours (first difference: $(cmp "$T/got$v" "$T/want" | head -1))"
	answered() { [ "$(st http2XX)" -ge "$1" ]; }
	wait_until 5 answered $((ok0 + 2)) || true # (then exactly, below)
	[ "$(st httpGet)" = $((g0 + 2)) ] && [ "$(st http2XX)" = $((ok0 + 2)) ] ||
		fail "TLS ${v/_/.}: httpGet +$(( $(st httpGet) - g0 )) http2XX +$(( $(st http2XX) - ok0 )), expected +2 +2"
	note "TLS ${v/_/.}: httpGet +2 http2XX +2, pushRt $(st pushRt)"
done
for k in pipeFull httpErr skErr tlsErr tlsFailAlert tlsFailProto tlsFailInternal badRx; do
	[ "$(st $k)" = 0 ] || fail "$k = $(st $k)"
done
[ "$(st tlsHsDone)" = 2 ] || fail "tlsHsDone $(st tlsHsDone), expected 2 (one connection per version)"
ctl -p e2e-tlspl stop >/dev/null
wait_exit "$PID_e2e_tlspl" 20 || fail "server exit status"
pass "two pipelined GETs of 1 MB answers in one TLS write, TLS 1.2 and 1.3: both answered byte for byte, httpGet +2 http2XX +2 each"
