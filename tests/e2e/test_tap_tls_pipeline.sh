#!/usr/bin/env bash
# Pipelined HTTPS requests behind answers over many segments (issue 36
# item 2): our HTTPS server (protocol https, payload_size 1m: 1,000,000
# bytes an answer, 685 segments) on a tap port, `openssl s_client` in a
# namespace writing two GETs in one TLS write (one record), for TLS 1.2
# and TLS 1.3, then five GETs in one write (TLS 1.3): exactly those
# answers come back, byte for byte (sha256 against ours), httpGet and
# http2XX up by as many each time, no pipeFull, httpErr, skErr or tlsErr.
# Seen failing on the main of 2026-12-04 (before the queue) with five:
# s_client ended with status 1 (the server's TLS error) before the fifth
# answer (the unit test's figure: 4,112,420 bytes of 5,000,000, then
# tlsErr); two passed there. The same queue as over plain
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
# snap: one stats --json into S (each dperf-ctl attaches: a while on a
# loaded box); sv KEY: a field of it; st KEY: a fresh one's.
snap() { S=$(ctl -p e2e-tlspl stats --json); }
sv() { jget "$S" "$1"; }
st() { snap; sv "$1"; }

# Our answer (http.h), as test_tap_pipeline.sh builds it: an 85-byte head
# padded with 'a', the body all 'a'.
/usr/bin/python3 - "$T/want" <<'PY'
import sys
SIZE = 1000000  # payload_size 1m
head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: keep-alive\r\n" % (SIZE - 85)
head += b"X-Pad: " + b"a" * (85 - len(head) - 11) + b"\r\n\r\n"
want = head + b"a" * (SIZE - 85)
assert len(want) == SIZE
open(sys.argv[1], "wb").write(want)
PY

# pipelined VERSION N: N GETs in one write (one record); -quiet: only the
# plaintext on stdout; -no_ign_eof (after it): stdin's end closes. Stdin
# stays open while the answers come: until N answers' bytes are in, and a
# second more (bytes past them would be seen), or 3 + N s at most; then
# s_client closes (status 0), or timeout ends it (status 124).
pipelined() {
	local v=$1 n=$2 rc=0 g0 ok0 got got_sum want_sum
	snap
	g0=$(sv httpGet) ok0=$(sv http2XX)
	for _ in $(seq "$n"); do cat "$T/want"; done >"$T/want$n"
	want_sum=$(sha256sum "$T/want$n" | cut -d' ' -f1)
	: >"$T/got$v"
	all_in() { [ "$(stat -c %s "$T/got$v")" -ge $((n * 1000000)) ]; }
	(for _ in $(seq "$n"); do printf 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'; done; { wait_until $((3 + n)) all_in && sleep 1; } || true) |
		ip netns exec $NS timeout $((5 + n)) openssl s_client -quiet -no_ign_eof -tls$v -connect 198.18.0.1:443 \
			-CAfile "$CERT" -servername dperf.test -verify_return_error \
			>>"$T/got$v" 2>"$T/s_$v.log" || rc=$?
	[ $rc = 0 ] || [ $rc = 124 ] || fail "openssl s_client -tls$v: status $rc: $(tail -5 "$T/s_$v.log")"
	got=$(stat -c %s "$T/got$v")
	got_sum=$(sha256sum "$T/got$v" | cut -d' ' -f1)
	note "TLS ${v/_/.}, $n GETs: $got bytes, sha256 ${got_sum:0:16} (expected $((n * 1000000)), ${want_sum:0:16})"
	[ "$got" = $((n * 1000000)) ] || fail "TLS ${v/_/.}: $got bytes, expected $n answers of 1000000 (tlsErr $(st tlsErr)): $(head -c 120 "$T/got$v" | od -c | head -3)"
	[ "$got_sum" = "$want_sum" ] || fail "TLS ${v/_/.}: the $n answers differ from ours (first difference: $(cmp "$T/got$v" "$T/want$n" | head -1))"
	answered() { snap; [ "$(sv http2XX)" -ge "$1" ]; }
	wait_until 5 answered $((ok0 + n)) || true # (then exactly, below: the same snapshot)
	[ "$(sv httpGet)" = $((g0 + n)) ] && [ "$(sv http2XX)" = $((ok0 + n)) ] ||
		fail "TLS ${v/_/.}: httpGet +$(( $(sv httpGet) - g0 )) http2XX +$(( $(sv http2XX) - ok0 )), expected +$n +$n"
	note "TLS ${v/_/.}: httpGet +$n http2XX +$n, pushRt $(sv pushRt)"
}
pipelined 1_2 2
pipelined 1_3 2
pipelined 1_3 5
snap
for k in pipeFull httpErr skErr tlsErr tlsFailAlert tlsFailProto tlsFailInternal badRx; do
	[ "$(sv $k)" = 0 ] || fail "$k = $(sv $k)"
done
[ "$(sv tlsHsDone)" = 3 ] || fail "tlsHsDone $(sv tlsHsDone), expected 3 (one connection per run)"
ctl -p e2e-tlspl stop >/dev/null
wait_exit "$PID_e2e_tlspl" 20 || fail "server exit status"
pass "pipelined GETs of 1 MB answers in one TLS write (two, TLS 1.2 and 1.3; five, TLS 1.3): each answered byte for byte, httpGet and http2XX up by as many"
