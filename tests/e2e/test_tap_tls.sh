#!/usr/bin/env bash
# Our HTTPS server (protocol https, our TCP and TLS) on a tap port inside a
# namespace, against the kernel's TLS clients: curl --cacert (the exact
# body), openssl s_client -tls1_2 and -tls1_3 (certificate verified, then
# the saved session reported Reused); a 1 MB answer of random bytes (an
# object from a file) downloaded by curl and by s_client, each over TLS 1.2
# and over TLS 1.3 (the version checked), its sha256 the file's, the
# object's requests, http2XX and goodTx (bits) and tlsHsDone grown by
# exactly the 4 downloads; ab and wrk over HTTPS (zero failures, http2XX
# equal to their counts); every handshake completed, none failed.
. "$(dirname "$0")/lib.sh"
for tool in curl ab wrk openssl; do command -v $tool >/dev/null || fail "$tool is not installed (scripts/install-deps.sh)"; done
CERT=$ROOT/build/tls/test-cert.pem KEY=$ROOT/build/tls/test-key.pem
[ -s "$KEY" ] || fail "$KEY missing (make build/tls/test-key.pem)"

NS=dperf-e2e-tls-tap
make_ns $NS
# the 1 MB answer: random bytes, so that a record lost, repeated or out of
# place changes the hash (a body of one repeated byte would hide it)
BIG=1048576
head -c $BIG /dev/urandom >"$T/1m.bin"
BIG_SHA=$(sha256sum <"$T/1m.bin" | cut -d' ' -f1)
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
port net_tap0,iface=dptap1 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.1 1
listen 443 1
keepalive
object / 115
object /1m file:$T/1m.bin
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

# curl: the exact body (object / 115: an 85-byte head, 115 bytes of 'a')
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

# The 1 MB object, each client over each version: the body's sha256 the
# file's, the version the one asked for. s_client -quiet writes only what
# it read (the answer, head and body) to stdout; its saved session names
# the version (Protocol  : TLSv1.x).
# obj PATH: the object PATH's requests, http2XX and goodTx in S (the last snap)
obj() { /usr/bin/python3 -c 'import json,sys; o=[o for o in json.loads(sys.argv[1])["objects"] if o["path"] == sys.argv[2]][0]; print(o["requests"], o["http2XX"], o["goodTx"])' "$S" "$1"; }
# body_of FILE: the body after the head of the answer in FILE, checked
# against its Content-Length (a record repeated or lost changes it)
body_of() {
	/usr/bin/python3 - "$1" <<'PY' || fail "s_client answer: $(head -c 300 "$1" | tr -d '\r' | head -5)"
import sys, re
d = open(sys.argv[1], "rb").read()
h, sep, b = d.partition(b"\r\n\r\n")
m = re.search(rb"\r\ncontent-length: *([0-9]+)", h, re.I)
if not h.startswith(b"HTTP/1.1 200 ") or not sep or not m or int(m.group(1)) != len(b):
    sys.exit("head %r, %d bytes after it" % (h[:200], len(b)))
sys.stdout.buffer.write(b)
PY
}
t0=$(date +%s%3N)
snap
hs0=$(sv tlsHsDone) o0=($(obj /1m))
for v in 1.2 1.3; do
	if [ $v = 1.2 ]; then cv=(--tlsv1.2 --tls-max 1.2); else cv=(--tlsv1.3); fi
	in_ns curl -sS -v --max-time 20 --cacert "$CERT" "${RES[@]}" "${cv[@]}" -o "$T/c$v.bin" ${URL}1m 2>"$T/c$v.err" ||
		fail "curl 1m TLS $v: $(grep -v '^[{}>]' "$T/c$v.err" | tail -5)"
	grep -q "^\* SSL connection using TLSv$v " "$T/c$v.err" || fail "curl 1m TLS $v: $(grep 'SSL connection' "$T/c$v.err")"
	grep -q "^< HTTP/1.1 200" "$T/c$v.err" || fail "curl 1m TLS $v: $(grep '^< HTTP' "$T/c$v.err")"
	[ "$(sha256sum <"$T/c$v.bin" | cut -d' ' -f1)" = "$BIG_SHA" ] ||
		fail "curl 1m TLS $v: $(stat -c %s "$T/c$v.bin") bytes, not the file's $BIG (sha256 differs)"
	printf 'GET /1m HTTP/1.1\r\nHost: dperf.test\r\nConnection: close\r\n\r\n' |
		in_ns timeout 20 openssl s_client -connect 198.18.0.1:443 -tls${v/./_} -servername dperf.test \
			-CAfile "$CERT" -verify_return_error -quiet -sess_out "$T/s1m$v.sess" >"$T/s1m$v.out" 2>"$T/s1m$v.err" ||
		fail "s_client 1m -tls${v/./_}: $(tail -5 "$T/s1m$v.err")"
	openssl sess_id -in "$T/s1m$v.sess" -noout -text | grep -qE "^ +Protocol +: TLSv$v\$" ||
		fail "s_client 1m -tls${v/./_}: $(openssl sess_id -in "$T/s1m$v.sess" -noout -text | grep Protocol)"
	body_of "$T/s1m$v.out" >"$T/s1m$v.bin"
	[ "$(sha256sum <"$T/s1m$v.bin" | cut -d' ' -f1)" = "$BIG_SHA" ] ||
		fail "s_client 1m -tls${v/./_}: the body's sha256 is not the file's"
done
# (a starved worker may count its last answer late)
counted() { snap; o1=($(obj /1m)); [ "${o1[1]}" -ge $((o0[1] + 4)) ] && [ "$(sv tlsHsDone)" -ge $((hs0 + 4)) ]; }
wait_until 5 counted || true # (then exactly, below)
[ "${o1[0]}" = $((o0[0] + 4)) ] && [ "${o1[1]}" = $((o0[1] + 4)) ] ||
	fail "object /1m: requests +$((o1[0] - o0[0])), http2XX +$((o1[1] - o0[1])), 4 downloads"
# (goodTx in bits: dperf-ctl(8))
[ "${o1[2]}" = $((o0[2] + 4 * (BIG + 85) * 8)) ] || fail "object /1m: goodTx +$((o1[2] - o0[2])) bits, 4 answers of $((BIG + 85)) bytes"
[ "$(sv tlsHsDone)" = $((hs0 + 4)) ] || fail "tlsHsDone +$(( $(sv tlsHsDone) - hs0 )), 4 downloads"
note "1 MB over HTTPS ok: curl and s_client, TLS 1.2 and 1.3, sha256 of the file each; object /1m requests and http2XX +4, tlsHsDone +4 ($(( $(date +%s%3N) - t0 )) ms)"

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
pass "curl, s_client TLS 1.2/1.3 new and resumed, 1 MB by both over both (sha256), ab ($done_n, -k too), wrk ($reqs): $hs handshakes, $eof closed by ab mid-handshake, no other failure"
