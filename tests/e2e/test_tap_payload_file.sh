#!/usr/bin/env bash
# dperf's payload_file: our server on a tap port in a namespace answers
# with the file's bytes as the HTTP body. curl downloads a file of random
# bytes larger than many segments (100000 bytes, over the multi-segment
# path) and one smaller than one segment; what curl gets has the file's
# sha256, with Content-Length the file's size, the same on a kept-alive
# connection's second answer; with a longer payload_size the body is the
# file, then the filler.
. "$(dirname "$0")/lib.sh"
command -v curl >/dev/null || fail "curl is not installed (scripts/install-deps.sh)"

NS=dperf-e2e-tapf
make_ns $NS
head -c 100000 /dev/urandom >"$T/big.bin"
head -c 700 /dev/urandom >"$T/small.bin"
in_ns() { ip netns exec $NS "$@"; }

# serve NAME FILE [PAYLOAD_SIZE EXPECTED]: a server on dptapf0 answering
# with FILE (or FILE then the filler up to PAYLOAD_SIZE); curl fetches it
# twice on one connection; both bodies must be the file (or EXPECTED).
serve() {
	local name=$1 file=$2 size want
	size=$(stat -c %s "${4:-$file}")
	want=$(sha256sum <"${4:-$file}" | cut -d' ' -f1)
	cat >"$T/$name.conf" <<CONF
mode server
cpu 0
duration 60s
port net_tap0,iface=dptapf0 198.18.0.1 198.18.0.2
client 198.18.0.2 1
server 198.18.0.1 1
listen 80 1
keepalive
payload_file $file
${3:+payload_size $3}
CONF
	start_primary "e2e-tapf-$name" "$T/$name.conf" $NS
	ip -n $NS addr add 198.18.0.2/24 dev dptapf0 2>/dev/null || true
	ip -n $NS link set dptapf0 up
	in_ns curl -s --max-time 20 -D "$T/$name.hdr" -o "$T/$name.1" http://198.18.0.1/ \
		-o "$T/$name.2" http://198.18.0.1/ || fail "$name: curl failed"
	grep -qi "^content-length: $size"$'\r'"\?$" "$T/$name.hdr" ||
		fail "$name: Content-Length is not $size: $(grep -i content-length "$T/$name.hdr" | tr -d '\r')"
	for k in 1 2; do
		[ "$(sha256sum <"$T/$name.$k" | cut -d' ' -f1)" = "$want" ] ||
			fail "$name: answer $k: $(stat -c %s "$T/$name.$k") bytes, not the file's $size (sha256 differs)"
	done
	[ "$(jget "$(ctl -p "e2e-tapf-$name" stats --json)" http2XX)" = 2 ] || fail "$name: http2XX is not 2"
	ctl -p "e2e-tapf-$name" stop >/dev/null
	wait_exit "$(eval echo "\$PID_e2e_tapf_$name")" 15 || fail "$name: the server exited with an error"
	note "$name: 2 answers of $size bytes, sha256 of the file"
}
serve big "$T/big.bin"
serve small "$T/small.bin"
# Our extension: a server's payload_size longer than the file: the file
# begins the body, the filler ('a') follows to payload_size - 85 bytes.
{ cat "$T/big.bin"; head -c $((300000 - 85 - 100000)) /dev/zero | tr '\0' a; } >"$T/prefix.want"
serve prefix "$T/big.bin" 300000 "$T/prefix.want"
pass "curl got the file's exact bytes: 100000 (many segments) and 700 (one), and the file then the filler to payload_size 300000, twice each on one connection"
