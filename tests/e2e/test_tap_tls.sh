#!/usr/bin/env bash
# Our HTTPS server (protocol https, our TCP and TLS) on a tap port inside a
# namespace, against the kernel's TLS clients: curl --cacert (the exact
# body), openssl s_client -tls1_2 and -tls1_3 (certificate verified, then
# the saved session reported Reused), ab and wrk over HTTPS (zero failures,
# http2XX equal to their counts); every handshake completed, none failed.
. "$(dirname "$0")/lib.sh"
for tool in curl ab wrk openssl; do command -v $tool >/dev/null || fail "$tool is not installed (scripts/install-deps.sh)"; done
CERT=$ROOT/build/tls/test-cert.pem KEY=$ROOT/build/tls/test-key.pem
[ -s "$KEY" ] || fail "$KEY missing (make build/tls/test-key.pem)"

NS=dperf-e2e-tls-tap
make_ns $NS
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
port net_tap0,iface=dptap1 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.1 1
listen 443 1
keepalive
payload_size 200
protocol https
tls_cert $CERT
tls_key $KEY
tls_resume tickets
CONF
start_primary e2e-tls-tap "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptap1
ip -n $NS link set dptap1 up
in_ns() { ip netns exec $NS "$@"; }
# snap: one stats --json into S (each dperf-ctl attaches: a while on a
# loaded box); sv KEY: a field of it; st KEY: a fresh one's.
snap() { S=$(ctl -p e2e-tls-tap stats --json); }
sv() { jget "$S" "$1"; }
st() { snap; sv "$1"; }
grep -qE '^TLS: [0-9]+ bytes per connection' "$T/e2e-tls-tap.log" || fail "no bytes per TLS connection stated: $(head -20 "$T/e2e-tls-tap.log")"
note "$(grep -E '^TLS: ' "$T/e2e-tls-tap.log")"
URL=https://dperf.test/
RES=(--resolve dperf.test:443:198.18.0.1)

# curl: the exact body (payload_size 200: an 85-byte head, 115 bytes of 'a')
in_ns curl -sS --max-time 10 --cacert "$CERT" "${RES[@]}" -D "$T/hdr" -o "$T/body" $URL || fail "curl --cacert failed"
grep -qi '^HTTP/1.1 200' "$T/hdr" || fail "curl status: $(head -1 "$T/hdr")"
[ "$(cat "$T/body")" = "$(printf 'a%.0s' $(seq 115))" ] || fail "curl body: $(head -c 200 "$T/body" | od -c | head -3)"
note "curl --cacert ok: the 115-byte body exactly"

# s_client, TLS 1.2 and 1.3: new (certificate verified), then resumed
for v in 1_2 1_3; do
	for run in new reused; do
		if [ $run = new ]; then sess=(-sess_out "$T/sess$v"); else sess=(-sess_in "$T/sess$v"); fi
		printf 'GET / HTTP/1.1\r\nHost: dperf.test\r\nConnection: close\r\n\r\n' |
			in_ns timeout 10 openssl s_client -connect 198.18.0.1:443 -tls$v -servername dperf.test \
				-CAfile "$CERT" -verify_return_error -ign_eof "${sess[@]}" >"$T/s_$v$run.log" 2>&1 ||
			fail "openssl s_client -tls$v ($run): $(tail -5 "$T/s_$v$run.log")"
		want="New"; [ $run = reused ] && want="Reused"
		grep -q "^$want, TLSv${v/_/.}" "$T/s_$v$run.log" ||
			fail "s_client -tls$v ($run): no \"$want, TLSv${v/_/.}\": $(grep -E '^(New|Reused)' "$T/s_$v$run.log")"
		grep -q "Verify return code: 0 (ok)" "$T/s_$v$run.log" || fail "s_client -tls$v: certificate not verified"
		grep -q "^HTTP/1.1 200 OK" "$T/s_$v$run.log" || fail "s_client -tls$v ($run): no answer"
	done
done
[ "$(st tlsResumed)" = 2 ] || fail "tlsResumed $(st tlsResumed), s_client reused 2"
note "s_client ok: TLS 1.2 and 1.3 verified, each resumed (tlsResumed 2)"

# ab over HTTPS: a handshake per request, and with keep-alive
for k in "" -k; do
	snap
	base=$(sv http2XX) hs0=$(sv tlsHsDone)
	in_ns timeout 60 ab -q $k -n 2000 -c 20 https://198.18.0.1/ >"$T/ab$k.log" 2>&1 || fail "ab $k: $(tail -3 "$T/ab$k.log")"
	done_n=$(awk '/^Complete requests:/{print $3}' "$T/ab$k.log")
	failed=$(awk '/^Failed requests:/{print $3}' "$T/ab$k.log")
	[ "$done_n" = 2000 ] && [ "$failed" = 0 ] || fail "ab $k: complete $done_n failed $failed"
	grep -qE "^HTML transferred: +$((2000 * 115)) bytes$" "$T/ab$k.log" || fail "ab $k: $(grep 'HTML transferred' "$T/ab$k.log")"
	grown_to() { [ "$(st http2XX)" -ge "$1" ]; }
	wait_until 5 grown_to $((base + 2000)) || true # (then exactly, below)
	snap
	[ "$(sv http2XX)" = $((base + 2000)) ] || fail "ab $k: http2XX grew by $(( $(sv http2XX) - base )), ab completed 2000"
	note "ab $k ok: 2000 requests, 0 failed, http2XX +2000, handshakes +$(( $(sv tlsHsDone) - hs0 ))"
done

# wrk over HTTPS
base=$(st http2XX)
in_ns wrk -t 1 -c 20 -d 3s https://198.18.0.1/ >"$T/wrk.log" 2>&1 || fail "wrk: $(tail -3 "$T/wrk.log")"
reqs=$(awk '/requests in/{print $1}' "$T/wrk.log")
grep -q "Socket errors" "$T/wrk.log" && fail "wrk: $(grep 'Socket errors' "$T/wrk.log")"
grep -q "Non-2xx" "$T/wrk.log" && fail "wrk: $(grep 'Non-2xx' "$T/wrk.log")"
[ "$reqs" -gt 0 ] || fail "wrk: $(cat "$T/wrk.log")"
wait_until 5 grown_to $((base + reqs)) || true
got=$(( $(st http2XX) - base ))
# wrk stops counting at 3 s: up to one answer per connection may be in flight then.
[ "$got" -ge "$reqs" ] && [ "$got" -le $((reqs + 20)) ] || fail "http2XX grew by $got, wrk completed $reqs"
note "wrk ok: $reqs requests, http2XX +$got"

# every handshake started completed or was closed by the tool: ab ends
# the connections it no longer needs when its count is reached, some in
# mid-handshake (tlsFailEof, at most its concurrency of 20 a run: seen 3);
# no other failure of any kind, no TLS error
# (the three counters from one snapshot; the checks after it on that one)
settled() { snap; [ "$(sv tlsHs)" = $(( $(sv tlsHsDone) + $(sv tlsFailEof) )) ]; }
wait_until 20 settled || true # (a starved worker may finish the last ones late)
settled ||
	fail "tlsHs $(sv tlsHs), tlsHsDone $(sv tlsHsDone), failed: $(for k in Alert Proto Verify Eof Timeout Internal; do printf '%s %s ' $k "$(sv tlsFail$k)"; done)skCon $(sv skCon)"
[ "$(sv tlsFailEof)" -le 40 ] || fail "tlsFailEof $(sv tlsFailEof): more than ab's two runs of 20 connections"
for k in tlsFailAlert tlsFailProto tlsFailVerify tlsFailTimeout tlsFailInternal tlsErr badRx httpErr; do
	[ "$(sv $k)" = 0 ] || fail "$k = $(sv $k)"
done
hs=$(sv tlsHsDone) eof=$(sv tlsFailEof)
ctl -p e2e-tls-tap stop >/dev/null
wait_exit "$PID_e2e_tls_tap" 20 || fail "server exit status"
pass "curl, s_client TLS 1.2/1.3 new and resumed, ab ($done_n, -k too), wrk ($reqs): $hs handshakes, $eof closed by ab mid-handshake, no other failure"
