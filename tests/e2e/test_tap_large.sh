#!/usr/bin/env bash
# Answers over many segments against the kernel's TCP (issue #22): our
# server on a tap port in a namespace. curl downloads of 100 KB, 1 MB and
# 100 MB complete with the exact bytes and content (the body is
# payload_size - 85 letters 'a': past the 64 MiB kept in memory too, by
# the content rule of primary/http/messages.h); wrk -c 50 against 64 KB
# answers has no error and our http2XX is what wrk completed plus those
# in flight at its end (at most one per connection), and ab -n 1000
# (every answer read to its end) adds exactly 1000 to http2XX; with one segment in
# 100 of our answers lost (test_tx_drop 100: the kernel here has no netem)
# and test_rx_drop 100 on our side, a 1 MB download still completes with
# the exact bytes, pushRt counts the resends, and the throughput with and
# without loss is printed (100 MB through loss: test_tap_loss).
. "$(dirname "$0")/lib.sh"
for tool in curl wrk ab; do command -v $tool >/dev/null || fail "$tool is not installed (scripts/install-deps.sh)"; done

NS=dperf-e2e-tapl
make_ns $NS
in_ns() { ip netns exec $NS "$@"; }
# snap: one stats --json into S (each dperf-ctl attaches: a while on a
# loaded box); sv KEY: a field of it; st KEY: a fresh one's.
snap() { S=$(ctl -p e2e-tapl stats --json); }
sv() { jget "$S" "$1"; }
st() { snap; sv "$1"; }

# serve SIZE [EXTRA]: a server answering SIZE-byte answers, its tap up.
serve() {
	cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
port net_tap0,iface=dptapl0 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.1 1
listen 80 1
keepalive
payload_size $1
${2:-}
CONF
	start_primary e2e-tapl "$T/server.conf" $NS
	ip -n $NS addr add 198.18.0.2/24 dev dptapl0
	ip -n $NS link set dptapl0 up
}
unserve() {
	ctl -p e2e-tapl stop >/dev/null
	wait_exit "$PID_e2e_tapl" 15 || fail "the server exited with an error"
}

# fetch SIZE LABEL: one curl download; checks length and content; prints
# curl's throughput in Mbit/s.
fetch() {
	local body=$(($1 - 85)) want got speed
	speed=$(in_ns curl -s --max-time 60 -o "$T/body" -w '%{speed_download}' http://198.18.0.1/) ||
		fail "$2: curl failed"
	got=$(stat -c %s "$T/body")
	[ "$got" = $body ] || fail "$2: body of $got bytes, expected $body"
	want=$(head -c $body /dev/zero | tr '\0' a | sha256sum | cut -d' ' -f1)
	[ "$(sha256sum <"$T/body" | cut -d' ' -f1)" = "$want" ] || fail "$2: the body's content differs"
	rm -f "$T/body"
	awk -v b="$speed" 'BEGIN { printf "%.0f", b * 8 / 1e6 }'
}

for size in 100000 1000000 100000000; do
	serve $size
	retrans0=$(ns_retrans $NS)
	mbps=$(fetch $size "curl $size")
	snap
	[ "$(sv http2XX)" = 1 ] || fail "curl $size: http2XX $(sv http2XX)"
	note "curl: $((size - 85)) bytes, exact content, $mbps Mbit/s; retransmissions: kernel $(( $(ns_retrans $NS) - retrans0 )), ours $(sv pushRt)"
	[ $size = 1000000 ] && clean_mbps=$mbps
	unserve
done

serve 64k
in_ns wrk -t 2 -c 50 -d 2s --timeout 10s http://198.18.0.1/ >"$T/wrk.log" 2>&1 || fail "wrk: $(tail -3 "$T/wrk.log")"
done_=$(awk '/requests in/ {print $1}' "$T/wrk.log")
grep -q "Socket errors\|Non-2xx" "$T/wrk.log" && fail "wrk errors: $(grep 'Socket errors\|Non-2xx' "$T/wrk.log")"
[ "${done_:-0}" -gt 0 ] || fail "wrk completed nothing: $(tail -5 "$T/wrk.log")"
# http2XX counts an answer when its first segment leaves; wrk counts it
# when its last byte is read. At wrk's end each of its 50 connections may
# have one answer begun and not read to the end: http2XX is what wrk
# completed plus at most 50, and the difference is printed.
snap
got=$(sv http2XX)
[ "$got" -ge "$done_" ] && [ "$got" -le $((done_ + 50)) ] ||
	fail "http2XX $got, wrk completed $done_ (at most 50 in flight at its end)"
[ "$(sv httpErr)" = 0 ] && [ "$(sv skErr)" = 0 ] || fail "wrk: httpErr $(sv httpErr) skErr $(sv skErr)"
note "wrk -c 50: $done_ answers of 64 KB completed, no error; http2XX $got ($((got - done_)) in flight at wrk's end)"
# ab asks for an exact number of requests and reads every answer to its
# end: http2XX grows by exactly that number. The baseline is taken once
# wrk's connections are all closed: a request wrk sent as it exited can
# still be answered after wrk's end (seen: 1001).
drained() { snap; [ "$(sv skCon)" = 0 ]; }
wait_until 10 drained || fail "wrk's connections still open: skCon $(sv skCon)"
got=$(sv http2XX) # (no connection left in that snapshot: nothing more to answer)
in_ns ab -k -n 1000 -c 50 -s 10 http://198.18.0.1/ >"$T/ab.log" 2>&1 || fail "ab: $(tail -3 "$T/ab.log")"
grep -q "^Complete requests: *1000$" "$T/ab.log" && grep -q "^Failed requests: *0$" "$T/ab.log" ||
	fail "ab: $(grep 'requests:' "$T/ab.log" | tr -s ' ')"
[ "$(st http2XX)" = $((got + 1000)) ] || fail "ab completed 1000 answers of 64 KB, http2XX grew by $(($(st http2XX) - got))"
note "ab -k -n 1000 -c 50: 1000 answers of 64 KB, no failure; http2XX grew by exactly 1000"
unserve

serve 1000000 $'test_tx_drop 100\ntest_rx_drop 100\nretransmit_timeout 200ms'
lossy_mbps=$(fetch 1000000 "1 MB with 1% loss")
snap
[ "$(sv pushRt)" -gt 0 ] || fail "1% loss and no retransmission counted"
[ "$(sv testDrop)" -gt 0 ] || fail "test_tx_drop and test_rx_drop dropped nothing"
note "1 MB with 1 segment in 100 lost: exact content, $lossy_mbps Mbit/s (without loss: $clean_mbps), pushRt $(sv pushRt)"
unserve

pass "curl 100 KB / 1 MB / 100 MB exact, wrk -c 50 64 KB ($done_, no error), ab 1000 exact, 1 MB through 1% loss"
