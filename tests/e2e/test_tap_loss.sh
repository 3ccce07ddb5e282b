#!/usr/bin/env bash
# Loss recovery against the kernel's TCP over tap (issue 27), both ways,
# each in a namespace with 198.18.0.0/15 addresses:
#  - curl downloads 100 MB from our server while one segment in 100 of
#    our answer is never sent (test_tx_drop 100: the kernel here has no
#    netem): the body's sha256 is exact, `ss -tio` on curl's socket shows
#    SACK in use (and the window scales both ways: ours is the worker's,
#    1 at mss 1460), the kernel's ACKs carry SACK blocks (sackRx) and we
#    resend about once per drop;
#  - our client fetches 4 MB files from nginx while one received data
#    segment in 100 is dropped (test_rx_drop 100): every response is
#    complete (http2XX equal to nginx's access-log lines, no httpErr) and
#    each byte counts once (goodRx equal to 8 x nginx's $bytes_sent).
# Bounded: the download within 30 s, the client runs 3 s.
. "$(dirname "$0")/lib.sh"
for tool in curl nginx ss; do command -v $tool >/dev/null || fail "$tool is not installed (scripts/install-deps.sh)"; done

NS=dperf-e2e-taploss
make_ns $NS
in_ns() { ip netns exec $NS "$@"; }

# --- our server, curl's download through test_tx_drop 100 ---------------
SIZE=100000000
cat >"$T/server.conf" <<CONF
mode server
cpu 0
duration 120s
$(tap_server_lines dptaplo0)
keepalive
payload_size $SIZE
test_tx_drop 100
CONF
start_primary e2e-taploss "$T/server.conf" $NS
ip -n $NS addr add 198.18.0.2/24 dev dptaplo0
ip -n $NS link set dptaplo0 up
# snap: one stats --json into S (each dperf-ctl attaches: a while on a
# loaded box); sv KEY: a field of it.
snap() { S=$(ctl -p e2e-taploss stats --json); }
sv() { jget "$S" "$1"; }

in_ns curl -s --max-time 30 -o "$T/body" http://198.18.0.1/ &
cpid=$!
# While it downloads, curl's socket as the kernel reports it. iproute2
# 6.1 prints the option flags (ts, sack, ecn) only with -o (--options).
sampled() { in_ns ss -tino dst 198.18.0.1:80 | grep -q 'rtt:'; }
wait_until 10 sampled || fail "no connection of curl's seen by ss"
in_ns ss -tino dst 198.18.0.1:80 >"$T/ss.txt"
wait $cpid || fail "curl: the 100 MB download failed or took over 30 s"
body=$((SIZE - 85))
got=$(stat -c %s "$T/body")
[ "$got" = $body ] || fail "body of $got bytes, expected $body"
want=$(head -c $body /dev/zero | tr '\0' a | sha256sum | cut -d' ' -f1)
sum=$(sha256sum <"$T/body" | cut -d' ' -f1)
rm -f "$T/body"
[ "$sum" = "$want" ] || fail "the body's sha256 $sum, expected $want"
opts=$(grep -o '^[[:space:]]*[a-z ]* wscale:[0-9,]*' "$T/ss.txt" | head -1 | tr -s ' \t' ' ')
note "ss -tio on curl's side:$opts"
grep -qw sack "$T/ss.txt" || fail "ss -tio shows no SACK on curl's connection: $(cat "$T/ss.txt")"
grep -q 'wscale:[0-9]*,[0-9]' "$T/ss.txt" || fail "ss -tio shows no window scaling: $(cat "$T/ss.txt")"
# wscale:SND,RCV on curl's side: SND is the shift we offered
[ "$(grep -o 'wscale:[0-9]*' "$T/ss.txt" | head -1)" = "wscale:1" ] ||
	fail "curl's side reads our window scale as $(grep -o 'wscale:[0-9,]*' "$T/ss.txt"), expected 1 (mss 1460)"
snap
drops=$(sv testDrop) rt=$(sv pushRt) sacks=$(sv sackRx)
note "100 MB, one segment in 100 of ours not sent: sha256 exact; testDrop $drops pushRt $rt sackRx $sacks spurRt $(sv spurRt)"
[ "$drops" -gt 0 ] || fail "test_tx_drop dropped nothing"
[ "$sacks" -gt 0 ] || fail "no SACK block from the kernel (sackRx 0)"
# Each drop resent once, and what test_tx_drop drops of the resends
# again: at most 1.5 per drop.
[ "$rt" -ge "$drops" ] && [ $((rt * 2)) -le $((drops * 3)) ] || fail "pushRt $rt for testDrop $drops (1 to 1.5 per drop)"
[ "$(sv http2XX)" = 1 ] || fail "http2XX $(sv http2XX), expected 1"
ctl -p e2e-taploss stop >/dev/null
wait_exit "$PID_e2e_taploss" 15 || fail "the server exited with an error"

# --- our client, nginx's 4 MB files through test_rx_drop 100 ------------
# nginx binds 198.18.0.1 before our primary's tap device carries it.
in_ns sysctl -qw net.ipv4.ip_nonlocal_bind=1
mkdir -p "$T/www"
head -c 4194304 /dev/urandom >"$T/www/4m"
nginx_start $NS 80 <<CONF
    log_format rx '\$uri \$status \$body_bytes_sent \$bytes_sent';
    access_log $T/nginx/access.log rx;
    server {
        listen 198.18.0.1:80;
        location = / { rewrite ^ /f/4m last; }
        location /f/ { alias $T/www/; }
    }
CONF
cat >"$T/client.conf" <<CONF
mode client
cpu 1
duration 3s
cps 100
cc 4
keepalive 0
$(tap_client_lines dptaplo1)
test_rx_drop 100
CONF
start_primary e2e-taplossc "$T/client.conf" $NS
ip -n $NS addr add 198.18.0.1/24 dev dptaplo1
ip -n $NS link set dptaplo1 up
wait_exit "$PID_e2e_taplossc" 30 || fail "the client exited with an error"
c=$T/e2e-taplossc.log
log=$T/nginx/access.log
# nginx writes its log line after the response: wait until it has as
# many as we counted (compared exactly below).
logged() { [ "$(wc -l <"$log")" -ge "$1" ]; }
wait_until 5 logged "$(total "$c" http2XX)" || true
kill -TERM "$NGINX"
ok=$(total "$c" http2XX) lines=$(wc -l <"$log") good=$(total "$c" goodRx)
bytes=$(awk '{ s += $4 } END { print s + 0 }' "$log")
note "4 MB files, one received segment in 100 dropped: http2XX $ok, nginx logged $lines responses and $bytes bytes; goodRx $good bits; testDrop $(total "$c" testDrop) tcpOoo $(total "$c" tcpOoo) oooDrop $(total "$c" oooDrop) tcpDrop $(total "$c" tcpDrop)"
awk '$2 != 200 || $3 != 4194304 { exit 1 }' "$log" || fail "nginx did not send what this test expects: $(head -3 "$log")"
[ "$(total "$c" testDrop)" -gt 0 ] || fail "test_rx_drop dropped nothing"
[ "$(total "$c" tcpOoo)" -gt 0 ] || fail "nothing held out of order"
[ "$ok" -gt 0 ] && [ "$ok" = "$lines" ] || fail "http2XX $ok != nginx access log lines $lines"
[ "$good" = $((bytes * 8)) ] || fail "goodRx $good bits != nginx's \$bytes_sent $bytes bytes x 8"
for k in skErr httpErr badRx; do [ "$(total "$c" $k)" = 0 ] || fail "$k = $(total "$c" $k)"; done
pass "curl 100 MB through 1% loss of ours: sha256 exact, SACK in ss ($drops drops, $rt resent); nginx 4 MB x $ok through 1% loss of theirs: http2XX = log lines, goodRx = 8 x \$bytes_sent"
