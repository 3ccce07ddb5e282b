#!/usr/bin/env bash
# dperf parity: configurations in the shape of every folder of baidu/dperf's
# test/ (at 1.9.0, commit 271ebe5), PCI addresses swapped for memif vdevs,
# checked with `dperf -t` only (no EAL, no traffic: no DPDK lock needed).
# Each must pass, except the kinds this version refuses on purpose, which
# must get one line naming the reason.
source "$(dirname "$0")/lib.sh"

n_ok=0
# conf NAME: the file's text on stdin. PCI addresses on "port" lines become
# memif vdevs, one socket per device (what a user of this version writes).
conf() {
	awk -v dir="$T" -v name="$1" '
		$1 == "port" && $2 ~ /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/ {
			sub(/[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]/,
			    "net_memif" n ",role=server,socket=" dir "/" name n ".sock"); n++
		}
		{ print }' >"$T/$1.conf"
}

# passes NAME...: each file passes `dperf -t`, silently but for its "ok" line
# and the warnings dperf itself prints. -t also checks this host (cores,
# hugepages, memory for cc) after the whole configuration is accepted;
# dperf's files name cores 48-50, 40 GB of socket_mem or 200M connections,
# so such a refusal counts as the configuration accepted (host_only).
host_only=0
passes() {
	local out rc
	for f in "$@"; do
		rc=0; out=$("$BUILD/dperf" -t -c "$T/$f.conf" 2>&1) || rc=$?
		if [ $rc != 0 ] && grep -Eq "this machine has CPUs|not in the set this process may run on|MB of hugepages, [0-9]+ MB are free|not enough hugepages|MB for connection state \(64 bytes each\), [0-9]+ MB of memory are available" <<<"$out"; then
			host_only=$((host_only + 1)); n_ok=$((n_ok + 1)); continue
		fi
		[ $rc = 0 ] || fail "$f: refused: $out"
		grep -q "ok$" <<<"$out" || fail "$f: no ok line: $out"
		n_ok=$((n_ok + 1))
	done
}

# refused NAME PATTERN: exit status 2 (a config error) and exactly one line, FILE:LINE form,
# matching PATTERN (an extended regex).
refused() {
	local f=$1 pat=$2 out rc=0
	out=$("$BUILD/dperf" -t -c "$T/$f.conf" 2>&1) || rc=$?
	[ $rc = 2 ] || fail "$f: exit status $rc, expected 2 (a config error): $out"
	[ "$(wc -l <<<"$out")" = 1 ] || fail "$f: more than one line: $out"
	grep -Eq "^$T/$f\.conf:[0-9]+: " <<<"$out" || fail "$f: not in FILE:LINE form: $out"
	grep -Eq "$pat" <<<"$out" || fail "$f: reason does not match /$pat/: $out"
}

# ---- test/http
conf http-client-cps <<'EOF'
mode        client
cpu         0
duration    60s
cps         10k
port        0000:1b:00.0    6.6.241.100   6.6.241.27
client      6.6.241.100     1
server      6.6.241.27      1
listen      80              1
EOF
conf http-server-cps <<'EOF'
mode        server
cpu         0
duration    10m
port        0000:1b:00.0    6.6.241.27   6.6.241.1
client      6.6.241.1       26
client      6.6.241.28      227
server      6.6.241.27      1
listen      80              1
EOF
passes http-client-cps http-server-cps

# ---- test/ipv6
conf ipv6-client-cps <<'EOF'

mode    client
#cpu 0 1
cpu 0

#payload_size 1440
#           seconds
duration    60
cps         10000

#port   pci             addr                gateway        [mac]
port    0000:03:00.1    2001:6:6:241::27    2001:6:6:241::1

#       addr_start      num
client   2001:6:6:241::25     2
#client  6.6.241.200     2

server  2001:6:6:241::33      1
listen      80          1
EOF
conf ipv6-server-cps <<'EOF'

mode    server
cpu 0
#keepalive
duration    1000s
port    0000:03:00.1    2001:6:6:241::27    2001:6:6:241::1
client  2001:6:6:241::10    50
server  2001:6:6:241::27    1
listen      80          1
EOF
passes ipv6-client-cps ipv6-server-cps

# ---- test/multi-instance
conf mi-client-cps-1 <<'EOF'
mode        client
cpu         0
socket_mem  40960,0
duration    5m
cps         2.4m
port        0000:5e:00.1    6.6.234.3    6.6.234.1
client      6.6.234.3   100
server      6.6.235.3   1
listen      80          5

tx_burst    64
launch_num  20
EOF
conf mi-server-cps-1 <<'EOF'
mode            server
cpu             12
socket_mem      0,40960
duration        4.5m
port            0000:af:00.1    6.6.235.3    6.6.235.1
client          6.6.234.3       100
server          6.6.235.3       1
listen          80              5
tx_burst        64
launch_num      8
EOF
passes mi-client-cps-1 mi-server-cps-1

# ---- test/performance/cps (1 port 1 core, 2 ports 2/4/6 cores)
for n in 1 2 4 6; do
	ports=$((n == 1 ? 1 : 2)); per=$((n / ports)); cpus=$(seq -s ' ' 0 $((n - 1)))
	{
		printf 'mode            client\ntx_burst        128\nlaunch_num      10\n'
		printf 'cpu             %s\n\npayload_size    1\nduration        2m\ncps             4m\n\n' "$cpus"
		printf 'port            0000:01:00.0    6.6.245.3 6.6.245.1  b4:a9:fc:ab:7a:85\n'
		[ $ports = 2 ] && printf 'port            0000:02:00.0    6.6.246.3 6.6.246.1  b4:a9:fc:ab:7a:85\n'
		printf 'client          6.6.245.3\t\t100\n'
		[ $ports = 2 ] && printf 'client          6.6.246.3\t\t100\n'
		printf 'server          6.6.247.3       %d\n' $per
		[ $ports = 2 ] && printf 'server          6.6.248.3       %d\n' $per
		printf 'listen          80              5\n'
	} | conf "cps-client-$n"
	{
		printf '#daemon\nmode            server\ntx_burst        128\ncpu             %s\n\n' "$cpus"
		printf 'duration        3m\npayload_size    1\n\n'
		printf 'port            0000:01:00.0    6.6.248.3    6.6.248.1  b4:a9:fc:ab:7a:85\n'
		[ $ports = 2 ] && printf 'port            0000:87:00.0    6.6.247.3    6.6.247.1  b4:a9:fc:ab:7a:85\n'
		printf 'client          6.6.245.3       100\n'
		[ $ports = 2 ] && printf 'client          6.6.246.3       100\n'
		printf 'server          6.6.248.3       %d\n' $per
		[ $ports = 2 ] && printf 'server          6.6.247.3       %d\n' $per
		printf 'listen          80              5\n'
	} | conf "cps-server-$n"
	passes "cps-client-$n" "cps-server-$n"
done

# ---- test/performance/cc and tps: the cc clients give "cc" with
# keepalive_request_interval only; the tps ones "cc" with "keepalive 1ms";
# the servers "keepalive 60s" or dperf's bare-number "keepalive 1".
for kind in cc tps; do
	for n in 1 2 4; do
		ports=$((n == 1 ? 1 : 2)); per=$((n / ports)); cpus=$(seq -s ' ' 0 $((n - 1)))
		{
			printf 'mode                        client\ntx_burst                    128\n'
			printf 'launch_num                  10\ncpu                         %s\n\n' "$cpus"
			if [ $kind = cc ]; then
				printf 'payload_size                1\nduration                    10m\n\n'
				printf 'cps                         1m\ncc                          200m\n'
				printf 'keepalive_request_interval  60s\n\n'
			else
				printf 'payload_size                1400\nduration                    2m\n\n'
				printf 'cps                         500\ncc                          6000\n'
				printf 'keepalive                   1ms\n\n'
			fi
			printf 'port                        0000:01:00.0    6.6.245.3   6.6.245.1   b4:a9:fc:ab:7a:85\n'
			[ $ports = 2 ] && printf 'port                        0000:02:00.0    6.6.246.3   6.6.246.1   b4:a9:fc:ab:7a:85\n'
			printf 'client                      6.6.245.3\t\t100\n'
			[ $ports = 2 ] && printf 'client                      6.6.246.3\t\t100\n'
			printf 'server                      6.6.247.3       %d\n' $per
			[ $ports = 2 ] && printf 'server                      6.6.248.3       %d\n' $per
			printf 'listen                      80              %d\n' $([ $kind = cc ] && echo 32 || echo 5)
		} | conf "$kind-client-$n"
		{
			printf '#daemon\nmode            server\ntx_burst        128\ncpu             %s\n\n' "$cpus"
			if [ $kind = cc ]; then
				printf 'duration        10m\npayload_size    1\nkeepalive       60s\n\n'
			else
				printf 'duration        3m\npayload_size    1400\nkeepalive       1\n\n'
			fi
			printf 'port            0000:01:00.0    6.6.248.3    6.6.248.1  b4:a9:fc:ab:7a:85\n'
			[ $ports = 2 ] && printf 'port            0000:87:00.0    6.6.247.3    6.6.247.1  b4:a9:fc:ab:7a:85\n'
			printf 'client          6.6.245.3       100\n'
			[ $ports = 2 ] && printf 'client          6.6.246.3       100\n'
			printf 'server          6.6.248.3       %d\n' $per
			[ $ports = 2 ] && printf 'server          6.6.247.3       %d\n' $per
			printf 'listen          80              %d\n' $([ $kind = cc ] && echo 32 || echo 5)
		} | conf "$kind-server-$n"
		passes "$kind-client-$n" "$kind-server-$n"
	done
done

# ---- test/performance/bandwidth
conf bw-client <<'EOF'
mode                        client
tx_burst                    1024
launch_num                  3
cpu                         0 1 2 3 4 5 6 7
payload_size                1400
duration                    120s
cps                         500
cc                          30000
keepalive                   1ms
port        0000:03:00.1    192.168.31.200   192.168.31.50 08:c0:eb:d1:f7:8f
client      192.168.31.200      8
server      192.168.31.50     8
EOF
printf 'listen 80 1' >>"$T/bw-client.conf" # dperf's file ends without a newline
conf bw-server <<'EOF'
mode                        server
tx_burst                    1024
cpu                         0 1 2 3 4 5 6 7
duration                    150s
payload_size                1400
keepalive                   1s
port                        0000:03:00.1    192.168.31.50   192.168.31.200
client      192.168.31.200      8
server      192.168.31.50     8
listen 80 1
EOF
passes bw-client bw-server

# ---- test/performance/tx-pps: UDP flood, dperf's PPS mode (cc + keepalive)
for n in 1 2 4 6 8; do
	{
		printf 'mode            client\ncpu             %s\nslow_start      30\n' "$(seq -s ' ' 0 $((n - 1)))"
		printf 'tx_burst        128\nlaunch_num      10\npayload_size    1\nduration       \t10d\n\n'
		printf 'protocol        udp\nflood\n\ncc              30k\ncps             1k\nkeepalive       1ms\n\n'
		printf 'port            0000:5e:00.1    6.6.234.4   6.6.234.1\n'
		printf 'client          6.6.234.4       1\nserver          6.6.213.4       %d\n' $n
		printf 'listen          80              1\n'
	} | conf "flood-$n"
	passes "flood-$n"
done

# ---- test/udp
conf udp-client <<'EOF'
mode                        client
protocol                    udp

cpu                         0 1
payload_size                64
duration                    60s

cc                          2000
keepalive_request_interval  2ms

#port                       pci             addr         gateway
port                        0000:1b:00.0    6.6.241.27   6.6.241.1
port                        0000:13:00.0    6.6.241.28   6.6.241.1

client                      6.6.241.100     2
client                      6.6.241.200     2

server                      6.6.241.29      1
server                      6.6.241.30      1

listen                      80              1
EOF
conf udp-server <<'EOF'
mode            server
protocol        udp

keepalive
payload_size    64

cpu             0 1

duration        10m

port            0000:1b:00.0    6.6.241.29   6.6.241.1
port            0000:13:00.0    6.6.241.30   6.6.241.1

client          6.6.241.100     2
client          6.6.241.200     2
client          6.6.242.31      1
client          6.6.241.33      1

server          6.6.241.29      1
server          6.6.241.30      1

listen          80              1

EOF
conf udp-server-ipv6 <<'EOF'
mode        server
protocol    udp
cpu         0

keepalive   1s
duration    10m

port        0000:1b:00.0        2001:6:6:241::27    2001:6:6:241::1
client      2001:6:6:241::10    50
server      2001:6:6:241::27    1
listen      80                  1
EOF
passes udp-client udp-server udp-server-ipv6

# ---- test/vxlan (ipv4 and ipv6 inner addresses over an IPv4 underlay),
# all four of each folder.
conf vxlan-client5 <<'EOF'
mode            client
cpu             0-4
tx_burst        128
launch_num      10
payload_size    1
duration       	10d
cps             1m
port            0000:03:00.1    6.6.215.3 6.6.215.1
vxlan           1               0c:42:a1:9a:a3:e6   bc:97:e1:b6:e8:12   6.6.215.3   5   6.6.213.3   5
client          1.1.1.1	        100
server          2.2.2.2         5
listen          80              1
EOF
conf vxlan-server-ipv6-udp <<'EOF'
mode            server
cpu             0
protocol        udp
tx_burst        128
payload_size    1
duration        10.1d
port            0000:03:00.1    6.6.213.3 6.6.213.1
vxlan   1   01:02:03:04:05:bb   01:02:03:04:05:aa   6.6.213.3   1   6.6.215.3   1
client          aa::1:1:1:1 	100
server          bb::2:2:2:2     1
listen          80              1
EOF
conf vxlan-server5 <<'EOF'
mode            server
cpu             0-4
tx_burst        128
payload_size    1
duration        10.1d
port            0000:03:00.1    6.6.213.3 6.6.213.1
vxlan           1               bc:97:e1:b6:e8:12   0c:42:a1:9a:a3:e6   6.6.213.3   5   6.6.215.3   5
client          1.1.1.1        100
server          2.2.2.2         5
listen          80              1
EOF
conf vxlan-client1 <<'EOF'
mode            client
cpu             0
tx_burst        128
launch_num      10
payload_size    1
duration       	10d
cps             1m
port   		0000:03:00.1    6.6.215.3 6.6.215.1
vxlan   1   01:02:03:04:05:aa   01:02:03:04:05:bb   6.6.215.3   1   6.6.213.3   1
client          1.1.1.1 	    100
server          2.2.2.2         1
listen          80              1
EOF
conf vxlan-server1 <<'EOF'
mode            server
cpu             0
tx_burst        128
payload_size    1
duration        10.1d
port            0000:03:00.1    6.6.213.3 6.6.213.1
vxlan   1   01:02:03:04:05:bb   01:02:03:04:05:aa   6.6.213.3   1   6.6.215.3   1
client          1.1.1.1         100
server          2.2.2.2         1
listen          80              1
EOF
conf vxlan-client-ipv6-5 <<'EOF'
mode            client
cpu             0-4
tx_burst        128
launch_num      10
payload_size    1
duration       	10d
cps             1m
port            0000:03:00.1    6.6.215.3 6.6.215.1
vxlan   1   01:02:03:04:05:aa   01:02:03:04:05:bb   6.6.215.3   5   6.6.213.3   5
client          aa::1:1:1:1 	100
server          bb::2:2:2:2     5
listen          80              1
EOF
conf vxlan-server-ipv6-5 <<'EOF'
mode            server
cpu             0-4
tx_burst        128
payload_size    1
duration        10.1d
port            0000:03:00.1    6.6.213.3 6.6.213.1
vxlan   1   01:02:03:04:05:bb   01:02:03:04:05:aa   6.6.213.3   5   6.6.215.3   5
client          aa::1:1:1:1 	100
server          bb::2:2:2:2     5
listen          80              1
EOF
conf vxlan-client-ipv6-udp <<'EOF'
mode            client
cpu             0
protocol        udp
tx_burst        128
launch_num      10
payload_size    1
duration       	10d
cps             1m
port            0000:03:00.1    6.6.215.3 6.6.215.1
vxlan   1   01:02:03:04:05:aa   01:02:03:04:05:bb   6.6.215.3   1   6.6.213.3   1
client          aa::1:1:1:1 	100
server          bb::2:2:2:2     1
listen          80              1
EOF
passes vxlan-client1 vxlan-server1 vxlan-client5 vxlan-server5 vxlan-client-ipv6-5 \
	vxlan-server-ipv6-5 vxlan-client-ipv6-udp vxlan-server-ipv6-udp

# ---- test/bond: 802.3ad (mode 4) with the l34 policy over two devices, as
# dperf's file, then the same bond of two net_af_packet vdevs (what runs on
# a box without NICs: test_bond_af_packet), whose arguments hold commas.
conf bond <<'EOF'
mode            server
cpu             0
payload_size    1
duration        10d
port            bond4:2(0000:81:10.0,0000:81:10.1)   10.235.20.12 10.235.20.1 00:00:64:01:01:01
client          10.130.29.28	    1
client          10.235.24.11	    1
server          10.235.20.12        1
listen          80                  1
EOF
sed 's/bond4:2([^)]*)/bond4:2(net_af_packet0,iface=eth1,net_af_packet1,iface=eth2)/' "$T/bond.conf" >"$T/bond-vdev.conf"
passes bond bond-vdev

# ---- test/kni: refused, with the reason and what to use instead
for v in 4 6; do
	if [ $v = 4 ]; then p='6.6.215.4    6.6.215.1 b4:a9:fc:ab:7a:85'; c='6.6.242.155 	100'; s='6.6.215.5       4'; cpu=0-3
	else p='2001:6:6:241::55 2001:6:6:241::1'; c='2001:6:6:241::1     100'; s='2001:6:6:241::55    1'; cpu=0; fi
	printf '#kni            vEth\nkni\nmode            server\ncpu             %s\ntx_burst        128\n' $cpu |
		cat - <(printf 'payload_size    1\nduration       \t10d\nport            0000:03:00.1    %s\n' "$p") \
		<(printf 'client          %s\nserver          %s\nlisten          80              1\n' "$c" "$s") |
		conf "kni-$v"
	refused "kni-$v" '^[^ ]+:2: kni: .*KNI.*removed.*DPDK.*23\.11.*net_tap.*net_virtio_user'
done

pass "$n_ok dperf test/ configurations accepted by dperf -t ($host_only of them then refused by this host's cores, hugepages or memory); kni refused with its reason"
