/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of the config parser (common/config.c, common/config_values.c).
 *
 * Most cases are a table: a valid base config (client or server) with one
 * keyword dropped and a few lines appended, and the expected outcome: success
 * or a substring of the one-line error (with its "t.conf:LINE:" prefix).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "shm.h"

/* Both bases have 6 lines: appended lines start at line 7. */
static const char *const base_client[] = {
	"mode client",
	"cpu 0 1",
	"port 0000:01:00.0 198.18.0.1 198.18.0.2",
	"client 198.18.1.2 10",
	"server 198.18.2.1 2",
	"cps 1k",
};

static const char *const base_server[] = {
	"mode server",
	"cpu 0 1",
	"port 0000:01:00.0 198.18.0.1 198.18.0.2",
	"client 198.18.1.2 10",
	"server 198.18.2.1 2",
	"listen 80 1",
};

#define BASE_LINES 6

/* readable files for the TLS paths (make unit makes the pair first) */
#define CERT DP_SOURCE_DIR "/build/tls/test-cert.pem"
#define KEY DP_SOURCE_DIR "/build/tls/test-key.pem"

struct tcase {
	int server;         /* base_server instead of base_client */
	const char *drop;   /* keyword whose base line becomes a comment */
	const char *add;    /* appended from line 7 */
	const char *expect; /* NULL: parses; else a substring of the error */
};

/* Base text with the line of keyword drop (if any) turned into a comment. */
static void
build(const struct tcase *tc, char *buf, size_t len)
{
	const char *const *base = tc->server ? base_server : base_client;
	size_t pos = 0, dl = tc->drop ? strlen(tc->drop) : 0;

	buf[0] = '\0';
	for (int i = 0; i < BASE_LINES; i++) {
		int drop = dl && strncmp(base[i], tc->drop, dl) == 0 && base[i][dl] == ' ';
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s\n", drop ? "# " : "", base[i]);
	}
	snprintf(buf + pos, len - pos, "%s", tc->add ? tc->add : "");
}

static int
parse_case(const struct tcase *tc, struct dp_config *cfg, char *err, size_t errlen)
{
	char text[8192];

	build(tc, text, sizeof(text));
	return dp_config_parse("t.conf", text, cfg, err, errlen);
}

#define C(add, expect) { 0, NULL, add, expect }
#define CD(drop, add, expect) { 0, drop, add, expect }
#define S(add, expect) { 1, NULL, add, expect }
#define SD(drop, add, expect) { 1, drop, add, expect }

static const struct tcase table[] = {
	/* the bases themselves */
	C("", NULL),
	S("", NULL),
	/* syntax: comments, blanks, tabs, CRLF */
	C("\n   \n# comment\n\t# indented comment\n", NULL),
	CD("cps", "cps\t2k   # trailing comment\n", NULL),
	CD("cps", "cps 2k\r\n", NULL),
	C("foo 1\n", "t.conf:7: foo: unknown keyword"),
	C("\nFOO\n", "t.conf:8: FOO: unknown keyword"),
	C("vxlan 1 2 3\n", "t.conf:7: vxlan: wrong number of arguments (expected \"vxlan VNI "
	  "INNER_SMAC INNER_DMAC VTEP_LOCAL NUM VTEP_REMOTE NUM\")"),
	C("kni\n", "t.conf:7: kni: KNI was removed from DPDK in 23.11 (expected a net_tap port, or "
	   "net_virtio_user with vhost-net"),
	C("kni vEth\n", "t.conf:7: kni: KNI was removed from DPDK in 23.11"),
	C("change_dip 1.1.1.1 1.1.1.2 1\n", "t.conf:7: change_dip: bad number \"1.1.1.2\""),
	C("synflood\n", "t.conf:7: synflood: not supported"),
	C("packet_size 64\n", NULL),
	C("mode client\n", "t.conf:7: mode: given twice, first on line 1 (expected one \"mode\" line)"),
	C("jumbo\njumbo\n", "t.conf:8: jumbo: given twice"),
	/* mode */
	CD("mode", "mode foo\n", "t.conf:7: mode: bad mode \"foo\" (expected client or server)"),
	CD("mode", "mode\n", "t.conf:7: mode: wrong number of arguments (expected \"mode client|server\")"),
	CD("mode", "", "t.conf: mode: missing (expected"),
	/* cpu */
	CD("cpu", "cpu 2-3\n", NULL),
	CD("cpu", "cpu 1023 5\n", NULL),
	CD("cpu", "cpu 1 1\n", "t.conf:7: cpu: core 1 listed twice (expected each core once)"),
	CD("cpu", "cpu 0-1 1\n", "t.conf:7: cpu: core 1 listed twice"),
	CD("cpu", "cpu 0-16\n", "t.conf:7: cpu: too many cores (expected at most 16)"),
	CD("cpu", "cpu 3-1\n", "t.conf:7: cpu: bad core \"3-1\""),
	CD("cpu", "cpu 1024 1\n", "t.conf:7: cpu: bad core \"1024\""),
	CD("cpu", "cpu x 1\n", "t.conf:7: cpu: bad core \"x\""),
	CD("cpu", "cpu -1 1\n", "t.conf:7: cpu: bad core \"-1\""),
	CD("cpu", "cpu 1- 2\n", "t.conf:7: cpu: bad core \"1-\""),
	CD("cpu", "cpu\n", "t.conf:7: cpu: wrong number of arguments"),
	CD("cpu", "", "t.conf: cpu: missing"),
	CD("cpu", "cpu 0 1 2\n", "t.conf:5: server: 2 addresses for 3 worker cores"),
	/* socket_mem */
	C("socket_mem 1024,1024\n", NULL),
	C("socket_mem 1g\n", "t.conf:7: socket_mem: bad value \"1g\""),
	C("socket_mem ,1\n", "t.conf:7: socket_mem: bad value"),
	C("socket_mem 1024 1024\n", "t.conf:7: socket_mem: wrong number of arguments"),
	/* port */
	CD("port", "port 01:00.0 198.18.0.1 198.18.0.2 aa:bb:cc:dd:ee:ff\n", NULL),
	CD("port", "port net_memif0,role=server,socket=/tmp/m.sock 198.18.0.1 198.18.0.2\n", NULL),
	CD("port", "port 01:00.0 198.18.0.1 198.18.0.2 aa:bb:cc:dd:ee\n",
	   "t.conf:7: port: bad MAC \"aa:bb:cc:dd:ee\" (expected a MAC like aa:bb:cc:dd:ee:ff)"),
	CD("port", "port 01:00.0 198.18.0.1 198.18.0.2 aa:bb:cc:dd:ee:fg\n", "t.conf:7: port: bad MAC"),
	CD("port", "port eth0 198.18.0.1 198.18.0.2\n", "t.conf:7: port: bad device \"eth0\""),
	CD("port", "port 0000:01:00.8 198.18.0.1 198.18.0.2\n", "t.conf:7: port: bad device"),
	CD("port", "port net_ 198.18.0.1 198.18.0.2\n", "t.conf:7: port: bad device"),
	/* bonds: dperf's bondMODE:POLICY(DEV0,DEV1,...), vdev members with arguments */
	CD("port", "port bond4:2(0000:81:10.0,0000:81:10.1) 198.18.0.1 198.18.0.2 00:00:64:01:01:01\n",
	   NULL),
	CD("port", "port bond0:0(net_af_packet0,iface=v0,qpairs=1,net_af_packet1,iface=v1) "
	   "198.18.0.1 198.18.0.2\n", NULL),
	CD("port", "port bond2:1(01:00.0) 198.18.0.1 198.18.0.2\n", NULL),
	CD("port", "port bond4:0000:01:00.0,0000:01:00.1 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: bad bond \"bond4:0000:01:00.0,0000:01:00.1\" (expected "
	   "bondMODE:POLICY(DEV0,DEV1,...)"),
	CD("port", "port bond5:2(01:00.0,01:00.1) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: bad bond mode 5 (expected 0 round robin"),
	CD("port", "port bond4:3(01:00.0,01:00.1) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: bad bond policy 3 (expected 0 l2, 1 l23 or 2 l34"),
	CD("port", "port bond4:2() 198.18.0.1 198.18.0.2\n", "t.conf:7: port: empty member in bond"),
	CD("port", "port bond4:2(01:00.0,) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: empty member in bond"),
	CD("port", "port bond4:2(01:00.0,01:00.1 198.18.0.1 198.18.0.2\n", "t.conf:7: port: bad bond"),
	CD("port", "port bond4:2(01:00.0)(01:00.1) 198.18.0.1 198.18.0.2\n", "t.conf:7: port: bad bond"),
	CD("port", "port bond42(01:00.0) 198.18.0.1 198.18.0.2\n", "t.conf:7: port: bad bond"),
	CD("port", "port bond4:2(eth0,eth1) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: bad member \"eth0\" in bond"),
	CD("port", "port bond4:2(01:00.0,iface=x) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: bad member \"iface=x\" in bond"),
	CD("port", "port bond4:2(net_af_packet0,iface) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: bad member \"iface\" in bond"),
	CD("port", "port bond4:2(net_bonding1,01:00.0) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: member \"net_bonding1\" is a bond itself"),
	CD("port", "port bond4:2(01:00.0,0000:01:00.0) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: member 0000:01:00.0 given twice in bond (expected each device once)"),
	CD("port", "port bond4:2(net_tap0,iface=a,net_tap0,iface=b) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: member net_tap0 given twice in bond"),
	CD("port", "port bond4:2(1:0.0,2:0.0,3:0.0,4:0.0,5:0.0,6:0.0,7:0.0,8:0.0,9:0.0) "
	   "198.18.0.1 198.18.0.2\n", "t.conf:7: port: bad member \"1:0.0\""),
	CD("port", "port bond4:2(01:00.0,01:00.1,01:00.2,01:00.3,01:00.4,01:00.5,01:00.6,01:00.7,"
	   "02:00.0) 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: too many members in bond (expected at most 8)"),
	CD("port", "port net_bonding0,mode=0,slave=01:00.0 198.18.0.1 198.18.0.2\n",
	   "t.conf:7: port: a net_bonding vdev cannot be given directly"),
	C("port bond0:0(0000:01:00.1,01:00.0) 198.18.0.5 198.18.0.2\n",
	  "t.conf:7: port: device \"0000:01:00.0\" already used on line 3"),
	CD("port", "port 01:00.0 198.18.0.1 2001:db8::1\n",
	   "t.conf:7: port: local 198.18.0.1 and gateway 2001:db8::1 are of different address families"),
	CD("port", "port 01:00.0 198.18.0.300 198.18.0.2\n",
	   "t.conf:7: port: bad local address \"198.18.0.300\""),
	CD("port", "port 01:00.0 198.18.0.1\n",
	   "t.conf:7: port: wrong number of arguments (expected \"port DEV LOCAL_IP GW_IP [GW_MAC]\")"),
	CD("port", "", "t.conf: port: missing (expected at least one \"port\" line)"),
	C("port 0000:01:00.0 198.18.0.5 198.18.0.2\n", "t.conf:7: port: device \"0000:01:00.0\" already used on line 3"),
	C("port 02:00.0 198.18.0.5 198.18.0.2\nport 03:00.0 198.18.0.6 198.18.0.2\n"
	  "port 04:00.0 198.18.0.7 198.18.0.2\nport 05:00.0 198.18.0.8 198.18.0.2\n",
	  "t.conf:10: port: too many ports (expected at most 4"),
	/* duration */
	C("duration 10s\n", NULL),
	C("duration 1.5d\n", NULL),
	C("duration 0\n", "t.conf:7: duration: 0 out of range"),
	C("duration 5x\n", "t.conf:7: duration: bad time \"5x\" (expected a time like"),
	/* issue 31 item 5: the longest duration the workers' clock can run,
	 * not one that wraps with the lead (wait + slow start) */
	C("duration 45d\n", NULL),
	C("duration 45.1d\n", "t.conf:7: duration: 45.1d out of range (expected 1us..45d)"),
	C("duration 18446744073709551615us\n", "t.conf:7: duration: 18446744073709551615us out of "
	  "range (expected 1us..45d)"),
	/* cps */
	CD("cps", "cps 12x\n", "t.conf:7: cps: bad number \"12x\" (expected a number like 100, 2k, 1.5m)"),
	CD("cps", "cps 0\n", "t.conf:7: cps: 0 out of range"),
	CD("cps", "cps -5\n", "t.conf:7: cps: bad number \"-5\""),
	CD("cps", "", "t.conf: cps: missing"),
	CD("cps", "flood\n", NULL),
	S("cps 1k\n", "t.conf:7: cps: only for mode client"),
	/* cc */
	C("cc 1k\nkeepalive\n", NULL),
	C("cc 1k\n", "t.conf:7: cc: needs keepalive (expected a line like \"keepalive 1s\""),
	C("cc 1k\nkeepalive_request_interval 10ms\n", NULL), /* dperf's cc files */
	C("cc 0\n", "t.conf:7: cc: 0 out of range"),
	S("cc 10\n", "t.conf:7: cc: only for mode client"),
	C("protocol udp\ncc 10\nkeepalive\n", NULL), /* dperf's packets-per-second mode */
	C("protocol udp\ncc 10\nkeepalive 0\n", "t.conf:9: keepalive: interval 0 with protocol udp "
	  "and cc (expected a positive interval"),
	C("protocol udp\ncc 10\n", "t.conf:8: cc: needs keepalive"),
	/* flood */
	S("flood\n", "t.conf:7: flood: only for mode client"),
	C("flood 1\n", "t.conf:7: flood: wrong number of arguments (expected \"flood\")"),
	/* launch_num */
	C("launch_num 1024\n", NULL),
	C("launch_num 0\n", "t.conf:7: launch_num: 0 out of range (expected 1..1024)"),
	C("launch_num 1025\n", "t.conf:7: launch_num: 1025 out of range"),
	/* client */
	CD("client", "client 198.18.1.1 254\n", NULL),
	CD("client", "client 198.18.1.250 10\n",
	   "t.conf:7: client: 198.18.1.250 + 10 addresses ends at 198.18.2.3"),
	CD("client", "client 198.18.1.2 255\n", "t.conf:7: client: count 255 out of range (expected 1..254)"),
	CD("client", "client 198.18.1.2 0\n", "t.conf:7: client: count 0 out of range"),
	CD("client", "client 198.18.1.x 2\n", "t.conf:7: client: bad client address"),
	CD("client", "client 2001:db8::1 2\n", "t.conf:7: client: IPv6 range on IPv4 ports"),
	CD("client", "client 198.18.1.2\n", "t.conf:7: client: wrong number of arguments (expected \"client IP COUNT\")"),
	CD("client", "", "t.conf: client: missing (expected one \"client\" line per \"port\" line)"),
	SD("client", "", "t.conf: client: missing (expected the client address range this server accepts)"),
	C("client 198.18.3.2 10\n", "t.conf:7: client: 2 \"client\" lines for 1 \"port\" lines"),
	/* server */
	CD("server", "server 198.18.2.1 1\n",
	   "t.conf:7: server: 1 addresses for 2 worker cores on this port (expected one server address per core, or \"rss\")"),
	CD("server", "server 198.18.2.1 1\nrss\n", NULL),
	SD("server", "server 198.18.2.1 3\n", "t.conf:7: server: 3 addresses for 2 worker cores"),
	CD("server", "", "t.conf: server: missing"),
	CD("server", "server 2001:db8::1 2\n", "t.conf:7: server: IPv6 range on IPv4 ports"),
	/* listen */
	C("listen 8080 10\n", NULL),
	C("listen 8080\n", NULL),
	C("listen 0\n", "t.conf:7: listen: port 0 out of range (expected 1..65535)"),
	C("listen 65535 2\n", "t.conf:7: listen: ports 65535 + 2 pass 65535"),
	C("listen 80 0\n", "t.conf:7: listen: count 0 out of range"),
	C("listen\n", "t.conf:7: listen: wrong number of arguments (expected \"listen PORT [COUNT]\")"),
	/* payload_size, mss, jumbo */
	C("payload_size 100\n", NULL),
	C("payload_size 1460\n", NULL),
	C("protocol udp\npayload_size 1461\n", "t.conf:8: payload_size: 1461 needs jumbo frames"),
	C("payload_size 1461\n", NULL), /* over TCP: a response over several segments */
	C("payload_size 64m\n", NULL),
	C("payload_size 1g\n", NULL), /* the first 64m stored, the rest repeats (messages.h) */
	C("payload_size 1074m\n", "t.conf:7: payload_size: 1074m out of range (expected 1..1073741824)"),
	C("payload_size 0\n", "t.conf:7: payload_size: 0 out of range"),
	C("payload_size 8000\njumbo\nmss 9000\n", NULL),
	C("protocol udp\npayload_size 8000\njumbo\n", "t.conf:8: payload_size: 8000 is larger than mss 1460"),
	C("protocol udp\nmss 1000\npayload_size 1200\n", "t.conf:9: payload_size: 1200 is larger than mss 1000"),
	C("protocol http\npayload_size 50\n", "t.conf:8: payload_size: 50 too small for protocol http (expected >= 85"),
	C("protocol http\npayload_size 85\n", NULL),
	C("payload_size 50\n", NULL),
	C("mss 536\n", NULL),
	C("mss 535\n", "t.conf:7: mss: 535 out of range (expected 536..9000)"),
	C("mss 9000\n", "t.conf:7: mss: 9000 needs jumbo frames"),
	C("jumbo\nmss 9000\n", NULL),
	/* payload_random and the other flags */
	C("payload_random\n", NULL),
	C("payload_random 1\n", "t.conf:7: payload_random: wrong number of arguments"),
	C("jumbo\nrss\nquiet\ndaemon\nfast_close\n", NULL),
	C("quiet yes\n", "t.conf:7: quiet: wrong number of arguments (expected \"quiet\")"),
	/* keepalive */
	C("keepalive\n", NULL),
	S("keepalive\n", NULL),
	C("keepalive 1ms 100\n", NULL),
	C("keepalive 1ms\n", NULL),
	C("keepalive 1x\n", "t.conf:7: keepalive: bad time \"1x\""),
	C("keepalive 1ms x\n", "t.conf:7: keepalive: bad number \"x\""),
	C("keepalive 1 2 3\n", "t.conf:7: keepalive: wrong number of arguments"),
	C("keepalive_request_interval 1ms\n", NULL),
	C("keepalive_request_interval 0\n", NULL),
	C("keepalive_request_num 0\n", NULL),
	C("keepalive_request_num 1g\n", NULL),
	C("keepalive_request_num 1000000001\n", "t.conf:7: keepalive_request_num: 1000000001 out of range"),
	/* pipeline, protocol, tx_burst */
	C("pipeline 64\n", NULL),
	C("pipeline 65\n", "t.conf:7: pipeline: 65 out of range (expected 1..64)"),
	C("pipeline 0\n", "t.conf:7: pipeline: 0 out of range"),
	C("protocol http\n", NULL),
	C("protocol udp\n", NULL),
	C("protocol sctp\n", "t.conf:7: protocol: bad protocol \"sctp\" (expected tcp, http, udp, https or tls)"),
	C("tx_burst 1024\n", NULL),
	C("tx_burst 1025\n", "t.conf:7: tx_burst: 1025 out of range (expected 1..1024)"),
	C("tx_hold 5us\n", NULL),
	C("tx_hold 0\n", NULL),
	C("tx_hold 1ms\n", NULL),
	C("tx_hold 2ms\n", "t.conf:7: tx_hold: 2ms out of range (expected 0..1ms)"),
	/* slow_start, wait */
	C("slow_start 0\n", NULL),
	C("slow_start 10\n", NULL),
	C("slow_start 1m\n", NULL),
	C("slow_start 600\n", NULL),
	C("slow_start 5\n", "t.conf:7: slow_start: 5 out of range (expected 10..600 seconds, or 0 to disable)"),
	C("slow_start 0.2s\n", "t.conf:7: slow_start: 0.2s out of range"),
	C("slow_start 601\n", "t.conf:7: slow_start: 601 out of range"),
	C("slow_start 10m\n", NULL),
	C("slow_start 11m\n", "t.conf:7: slow_start: 11m out of range"),
	C("slow_start x\n", "t.conf:7: slow_start: bad time \"x\""),
	C("wait 0\n", NULL),
	C("wait 60\n", NULL),
	C("wait 61\n", "t.conf:7: wait: 61 out of range (expected 0..60 seconds)"),
	/* the rounding to whole seconds must not wrap to 0 (issue 31 item 5) */
	C("wait 18446744073709551615us\n", "t.conf:7: wait: 18446744073709551615us out of range "
	  "(expected 0..60 seconds)"),
	C("slow_start 18446744073709551615us\n", "t.conf:7: slow_start: 18446744073709551615us out "
	  "of range (expected 10..600 seconds, or 0 to disable)"),
	/* vxlan: dperf's rules (one per port, a local VTEP per core, remote 1 or
	 * one per core, not with vlan), ours (VTEPs of the port's family, mss fits) */
#define VX "vxlan 1 02:00:00:00:00:01 02:00:00:00:00:02 "
	C(VX "198.18.0.1 2 198.18.0.9 2\n", NULL),
	C(VX "198.18.0.1 2 198.18.0.9 1\n", NULL),
	C("vxlan 16777215 02:00:00:00:00:01 02:00:00:00:00:02 198.18.0.1 2 198.18.0.9 1\n", NULL),
	C("vxlan 0 02:00:00:00:00:01 02:00:00:00:00:02 198.18.0.1 2 198.18.0.9 1\n",
	  "t.conf:7: vxlan: VNI 0 out of range (expected 1..16777215)"),
	C("vxlan 16777216 02:00:00:00:00:01 02:00:00:00:00:02 198.18.0.1 2 198.18.0.9 1\n",
	  "t.conf:7: vxlan: VNI 16777216 out of range"),
	C("vxlan 1 02:00:00:00:00:01 02:00 198.18.0.1 2 198.18.0.9 1\n",
	  "t.conf:7: vxlan: bad inner MAC \"02:00\" (expected a MAC like aa:bb:cc:dd:ee:ff)"),
	C(VX "198.18.0.x 2 198.18.0.9 1\n", "t.conf:7: vxlan: bad vxlan address \"198.18.0.x\""),
	C(VX "198.18.0.255 2 198.18.0.9 1\n", "t.conf:7: vxlan: 198.18.0.255 + 2 addresses ends at"),
	C(VX "198.18.0.1 1 198.18.0.9 1\n", "t.conf:7: vxlan: 1 local VTEP addresses for 2 worker "
	  "cores on this port (expected one per core)"),
	C(VX "198.18.0.1 2 198.18.0.9 3\n", "t.conf:7: vxlan: 3 remote VTEP addresses for 2 worker "
	  "cores on this port (expected 1, or one per core)"),
	C(VX "2001:db8::1 2 2001:db8::9 1\n", "t.conf:7: vxlan: IPv6 VTEP addresses on the IPv4 "
	  "port of line 3 (expected the port's family"),
	C(VX "198.18.0.1 2 2001:db8::9 1\n", "t.conf:7: vxlan: local VTEP 198.18.0.1 and remote "
	  "VTEP 2001:db8::9 are of different address families"),
	C(VX "198.18.0.1 2 198.18.0.9 1\n" VX "198.18.0.1 2 198.18.0.9 1\n",
	  "t.conf:8: vxlan: 2 \"vxlan\" lines for 1 \"port\" lines (expected one per port"),
	C("vlan 5\n" VX "198.18.0.1 2 198.18.0.9 1\n", "t.conf:7: vlan: given with vxlan"),
	C(VX "198.18.0.1 2 198.18.0.9 1\nmss 1410\n", NULL),
	C(VX "198.18.0.1 2 198.18.0.9 1\nmss 1411\n", "t.conf:8: mss: 1411 does not fit a "
	  "1500-byte MTU inside VXLAN (expected at most 1410, or jumbo)"),
	C(VX "198.18.0.1 2 198.18.0.9 1\npayload_size 1411\n", NULL), /* two segments of mss 1410 */
	CD("server", VX "198.18.0.1 2 198.18.0.9 1\nrss\nserver 198.18.2.1 4\n", "t.conf:9: server: "
	   "4 addresses for 2 worker cores on this port (expected one server address per core, as "
	   "vxlan requires)"),
	/* tos, vlan, tcp_rst */
	C("tos 0x10\n", NULL),
	C("tos 255\n", NULL),
	C("tos 256\n", "t.conf:7: tos: bad value \"256\" (expected 0x00..0xff or 0..255)"),
	C("tos 0x100\n", "t.conf:7: tos: bad value"),
	C("tos 0xzz\n", "t.conf:7: tos: bad value"),
	C("tos 0x\n", "t.conf:7: tos: bad value"),
	C("vlan 1\n", NULL),
	C("vlan 4094\n", NULL),
	C("vlan 0\n", "t.conf:7: vlan: 0 out of range (expected 1..4094)"),
	C("vlan 4095\n", "t.conf:7: vlan: 4095 out of range"),
	C("tcp_rst 0\n", NULL),
	C("tcp_rst 2\n", "t.conf:7: tcp_rst: bad value \"2\" (expected 0 or 1)"),
	/* http_* */
	C("http_host example.com\n", NULL),
	C("http_host "
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
	  "t.conf:7: http_host: bad host"),
	C("http_host a b\n", "t.conf:7: http_host: wrong number of arguments"),
	C("http_path /index.html\n", NULL),
	C("http_path index.html\n", "t.conf:7: http_path: bad path \"index.html\" (expected a path starting with '/'"),
	C("http_method POST\n", NULL),
	C("http_method get\n", NULL),
	C("http_method PUT\n", "t.conf:7: http_method: bad method \"PUT\" (expected GET or POST)"),
	/* lport_range */
	C("lport_range 1000 2000\n", NULL),
	C("lport_range 2000 2000\n", NULL),
	C("lport_range 2000 1000\n", "t.conf:7: lport_range: min 2000 above max 1000"),
	C("lport_range 0 10\n", "t.conf:7: lport_range: min 0 out of range"),
	C("lport_range 1 65536\n", "t.conf:7: lport_range: max 65536 out of range"),
	C("lport_range 1\n", NULL),
	C("lport_range 1 2 3\n", "t.conf:7: lport_range: wrong number of arguments (expected \"lport_range MIN [MAX]\")"),
	/* dperf 1.9's rules */
	S("client 198.18.3.1 5\nclient 198.18.1.100 100\n", NULL), /* any number on a server */
	S("client 198.18.1.11 5\n", "t.conf:7: client: overlaps the range on line 4 (expected each "
	  "client address in one range)"),
	S("client 198.18.1.1 2\n", "t.conf:7: client: overlaps the range on line 4"),
	S("client 198.18.1.12 1\n", NULL),
	C("client 198.18.3.1 5\n", "t.conf:7: client: 2 \"client\" lines for 1 \"port\" lines"),
	CD("cps", "", "t.conf: cps: missing (expected \"cps NUMBER\" in mode client, \"cc NUMBER\" "
	   "with keepalive, or \"flood\")"),
	C("flood\nkeepalive 0\n", "t.conf:8: keepalive: interval 0 with flood (expected a positive "
	  "interval"),
	C("flood\nkeepalive_request_interval 0ms\n", "t.conf:8: keepalive: interval 0 with flood"),
	C("flood\nkeepalive 1ms\n", NULL),
	C("keepalive 0\n", NULL),
	/* dperf 1.9's keywords */
	C("client_port_range 1000\n", NULL),
	C("client_port_range 1000 2000\nlport_range 1 2\n", "t.conf:8: lport_range: given twice, "
	  "first as \"client_port_range\" on line 7"),
	C("client_port_range 0\n", "t.conf:7: client_port_range: min 0 out of range"),
	C("send_window 2\n", NULL),
	C("send_window 16\n", NULL),
	C("send_window 1\n", "t.conf:7: send_window: 1 out of range (expected 2..16)"),
	C("send_window 17\n", "t.conf:7: send_window: 17 out of range (expected 2..16)"),
	C("jumbo 9710\n", NULL),
	C("jumbo 8999\n", "t.conf:7: jumbo: MTU 8999 out of range (expected 9000..9710)"),
	C("jumbo 9711\n", "t.conf:7: jumbo: MTU 9711 out of range"),
	C("jumbo 9000 1\n", "t.conf:7: jumbo: wrong number of arguments (expected \"jumbo [MTU]\")"),
	C("packet_size 54\n", "t.conf:7: packet_size: 54 leaves no payload (expected more than the "
	  "54 bytes of headers)"),
	C("packet_size 100\npayload_size 10\n", "t.conf:7: packet_size: given with payload_size on "
	  "line 8 (expected one of them)"),
	C("simd512\n", NULL),
	C("rss l3\n", NULL),
	C("rss l3 mq_rx_rss\n", NULL),
	C("rss l3l4\n", "t.conf:7: rss: \"l3l4\" is not supported by this version of dperf-live "
	  "(expected rss or rss l3"),
	C("rss auto mq_rx_none\n", "t.conf:7: rss: \"auto\" is not supported"),
	C("rss l3 mq_rx_none\n", "t.conf:7: rss: \"mq_rx_none\" is not supported"),
	C("simd512 1\n", "t.conf:7: simd512: wrong number of arguments"),
	C("clear_screen\n", NULL),
	S("payload_size 100 200\n", NULL), /* dperf 1.9: one per server core */
	S("payload_size 100 200 300\n", "t.conf:7: payload_size: 3 sizes for 2 cores (expected one "
	  "size, or one per core of the cpu line)"),
	C("payload_size 100 200\n", "t.conf:7: payload_size: 2 sizes on a client (expected one size"),
	S("protocol udp\npayload_size 100 2000\n", "t.conf:8: payload_size: 2000 needs jumbo frames"),
	S("protocol http\npayload_size 100 20\n", "t.conf:8: payload_size: 20 too small for protocol "
	  "http"),
	C("flood\nchange_dip 198.18.2.1 1 4\n", NULL),
	C("flood\nchange_dip 198.18.2.1 2 2\n", NULL), /* as many as the 2 cores */
	C("change_dip 198.18.2.1 1 4\n", "t.conf:7: change_dip: only for a flooding client "
	  "(expected mode client and \"flood\")"),
	S("change_dip 198.18.2.1 1 4\n", "t.conf:7: change_dip: only for a flooding client"),
	C("flood\nchange_dip 198.18.2.1 1 1\n", "t.conf:8: change_dip: 1 addresses for 2 cores "
	  "(expected at least one per core)"),
	C("flood\nchange_dip 2001:db8::1 1 4\n", "t.conf:8: change_dip: IPv6 address on IPv4 ports"),
	C("flood\nchange_dip 198.18.2.1 0 4\n", "t.conf:8: change_dip: step 0 out of range "
	  "(expected 1..65535)"),
	C("flood\nchange_dip 255.255.255.250 2 4\n", "t.conf:8: change_dip: 255.255.255.250 + 2 x 3 "
	  "passes the end of the address space"),
	C("client_hop\n", NULL),
	S("client_hop\n", NULL), /* accepted as dperf does, with a warning (test_values) */
	C("client_hop 1\n", "t.conf:7: client_hop: wrong number of arguments"),
	/* payload_file's rules: test_payload_file.c */
	C("payload_file /nonexistent/x\n", "t.conf:7: payload_file: /nonexistent/x: cannot open: No "
	  "such file or directory (expected a readable file)"),
	C("payload_file\n", "t.conf:7: payload_file: wrong number of arguments"),
	C("neigh_ignore\n", NULL),
	S("neigh_ignore\n", NULL),
	C("neigh_ignore 1\n", "t.conf:7: neigh_ignore: wrong number of arguments"),
	C("flow_isolate\n", NULL), /* the device is known at start: test_bad_input */
	S("flow_isolate\n", NULL),
	C("flow_isolate on\n", "t.conf:7: flow_isolate: wrong number of arguments"),
	/* retransmit_timeout */
	C("retransmit_timeout 10ms\n", NULL),
	C("retransmit_timeout 60s\n", NULL),
	C("retransmit_timeout 9ms\n", "t.conf:7: retransmit_timeout: 9ms out of range (expected 10ms..60s)"),
	C("retransmit_timeout 61s\n", "t.conf:7: retransmit_timeout: 61s out of range"),
	/* delayed_ack: at most half of retransmit_timeout; the default yields */
	C("delayed_ack 0\n", NULL),
	C("delayed_ack 500ms\n", NULL),
	C("delayed_ack 501ms\n", "t.conf:7: delayed_ack: 501ms out of range (expected 0..500ms)"),
	C("retransmit_timeout 10ms\n", NULL),
	C("retransmit_timeout 100ms\ndelayed_ack 50ms\n", NULL),
	C("retransmit_timeout 100ms\ndelayed_ack 51ms\n",
	  "t.conf:8: delayed_ack: 51000 us is more than half of retransmit_timeout (expected at most 50000 us"),
	C("disable_ack\n", NULL),
	/* TLS (dperf-live's): each keyword for its side, with protocol https or tls */
	S("protocol https\ntls_cert " CERT "\ntls_key " KEY "\n", NULL),
	S("protocol tls\ntls_cert " CERT "\ntls_key " KEY "\ntls_version 1.3\ntls_ciphers "
	  "TLS_AES_128_GCM_SHA256\ntls_groups X25519\ntls_resume ids\ntls_alpn http/1.1\n", NULL),
	S("protocol https\n", "t.conf: tls_cert: missing (expected the server's certificate and key "
	  "with protocol https; scripts/tls-cert.sh makes a test pair)"),
	S("protocol tls\ntls_cert " CERT "\n", "t.conf: tls_key: missing (expected the server's "
	  "certificate and key with protocol tls"),
	S("protocol https\ntls_cert /nonexistent/c.pem\ntls_key " KEY "\n", "t.conf:8: tls_cert: "
	  "/nonexistent/c.pem: cannot read: No such file or directory (expected a readable PEM file)"),
	S("protocol https\ntls_cert " CERT "\ntls_key " KEY "\ntls_sni x\n", "t.conf:10: tls_sni: a "
	  "client's (expected only on \"mode client\")"),
	C("protocol https\n", NULL),
	C("protocol https\ntls_verify 1\ntls_ca " CERT "\ntls_sni dperf.test\ntls_resume tickets\n",
	  NULL),
	C("protocol https\ntls_verify 1\n", "t.conf:8: tls_verify: 1 without tls_ca (expected the "
	  "certificates to trust)"),
	C("protocol https\ntls_ca " CERT "\n", "t.conf:8: tls_ca: without \"tls_verify 1\" (expected "
	  "both, or neither)"),
	C("protocol https\ntls_cert " CERT "\n", "t.conf:8: tls_cert: a server's (expected no client "
	  "certificate"),
	C("tls_sni dperf.test\n", "t.conf:7: tls_sni: without TLS (expected \"protocol https\" or "
	  "\"protocol tls\")"),
	C("protocol http\ntls_resume tickets\n", "t.conf:8: tls_resume: without TLS"),
	C("protocol https\ntls_version 1.1\n", "t.conf:8: tls_version: bad version \"1.1\" (expected "
	  "1.2 or 1.3)"),
	C("protocol https\ntls_resume sometimes\n", "t.conf:8: tls_resume: bad way \"sometimes\" "
	  "(expected none, tickets or ids)"),
	C("protocol https\ntls_verify 2\n", "t.conf:8: tls_verify: bad value \"2\" (expected 0 or 1)"),
	C("protocol https\nflood\n", "t.conf:8: flood: with protocol https (expected connections"),
	C("protocol https\ntls_sni\n", "t.conf:8: tls_sni: wrong number of arguments"),
	/* log_level */
	C("log_level debug\n", NULL),
	C("log_level 0\n", NULL),
	C("log_level 8\n", NULL),
	C("log_level 9\n", "t.conf:7: log_level: bad level \"9\""),
	C("log_level verbose\n", "t.conf:7: log_level: bad level \"verbose\""),
	/* traffic mixes (issue 37): kind, kind_seed, object */
	C("kind a 70 /1k\nkind b 20 /64k size 65536 keepalive 3\nkind c 10 /1m http\n"
	  "kind_seed 42\nkeepalive 1ms\n", NULL),
	C("kind a 0 /x\nkind b 1 /y\n", NULL),
	C("kind a 0 /x\nkind b 0 /y\n", "t.conf:7: kind: all weights 0 (expected at least one "
	  "kind with a weight above 0)"),
	C("kind a 1 /x\nkind a 2 /y\n", "t.conf:8: kind: name \"a\" given twice, first on line 7"),
	C("kind a 1 x\n", "t.conf:7: kind: bad path \"x\" (expected a path starting with '/')"),
	C("kind a 1 /" "0123456789012345678901234567890123456789012345678901234567890123"
	  "45678901234567890123456789012345678901234567890123456789012345\n", NULL),
	C("kind a 1 /" "0123456789012345678901234567890123456789012345678901234567890123"
	  "456789012345678901234567890123456789012345678901234567890123456\n",
	  "t.conf:7: kind: path too long, 128 characters (expected at most 127)"),
	C("kind a! 1 /\n", "t.conf:7: kind: bad name \"a!\""),
	C("kind total 1 /\n", "t.conf:7: kind: bad name \"total\""),
	C("kind a x /\n", "t.conf:7: kind: bad number \"x\""),
	C("kind a 1000001 /\n", "t.conf:7: kind: weight 1000001 out of range (expected 0..1000000)"),
	C("kind a 1 / size\n", "t.conf:7: kind: size without its number (expected \"size N\")"),
	C("kind a 1 / size 1 size 2\n", "t.conf:7: kind: option size given twice"),
	C("kind a 1 / http http\n", "t.conf:7: kind: option http given twice"),
	C("kind a 1 / gzip\n", "t.conf:7: kind: bad option \"gzip\" (expected size N, "
	  "keepalive N, http, https or server A.B.C.D N)"),
	C("kind a 1 / keepalive 3\n", "t.conf:7: kind: a: keepalive 3 without keepalive "
	  "(expected a \"keepalive\" line"),
	C("kind a 1 / https\n", "t.conf:7: kind: a: https with protocol tcp (expected "
	  "\"protocol https\" in a file with https kinds: its tls_* lines are theirs, and its "
	  "kinds marked http go plain)"),
	C("protocol http\nkind a 1 /\nkind b 1 / https\n", "t.conf:9: kind: b: https with "
	  "protocol http (expected \"protocol https\""),
	/* a mix of http and https kinds: protocol https, kinds marked http go plain */
	C("protocol https\nkind p 60 /1k http\nkind t 40 /16k https\nkind d 1 /x\n", NULL),
	S("protocol https\ntls_cert " CERT "\ntls_key " KEY "\nplain_http\nobject /1k 1k\n", NULL),
	S("plain_http\n", "t.conf:7: plain_http: with protocol tcp (expected \"protocol https\": "
	  "plain_http is the plain HTTP an HTTPS server also serves)"),
	S("protocol http\nplain_http\n", "t.conf:8: plain_http: with protocol http (expected"),
	C("protocol https\nplain_http\n", "t.conf:8: plain_http: only for mode server (expected "
	  "kinds marked http on a client: those go plain)"),
	S("protocol https\ntls_cert " CERT "\ntls_key " KEY "\nplain_http 1\n",
	  "t.conf:10: plain_http: wrong number of arguments"),
	C("kind a 1 /\nprotocol udp\n", "t.conf:7: kind: with protocol udp (expected HTTP requests"),
	C("kind a 1 /\npayload_size 64\n", "t.conf:7: kind: with protocol tcp and raw payloads"),
	C("kind a 1 /\nflood\n", "t.conf:7: kind: given with flood on line 8"),
	C("kind a 1 /\nhttp_path /b\n", "t.conf:8: http_path: given with kind lines"),
	C("kind_seed 3\n", "t.conf:7: kind_seed: without kind lines"),
	C("kind a\n", "t.conf:7: kind: wrong number of arguments (expected \"kind NAME WEIGHT "
	  "PATH [size N] [keepalive N] [http|https] [server A.B.C.D N]\")"),
	/* a kind's own server pool (base: 2 cores, server 198.18.2.1 2, client 198.18.1.2 4) */
	C("kind a 1 /a\nkind b 1 /b server 198.18.3.1 2\nkind c 1 /c server 198.18.3.1 2 http\n",
	  NULL),
	C("kind a 1 /a server 198.18.2.1 2\n", NULL), /* the server line's own: the same */
	C("kind a 1 /a server 198.18.3.1\n", "t.conf:7: kind: server without its address and count "
	  "(expected \"server A.B.C.D N\")"),
	C("kind a 1 /a server x 2\n", "t.conf:7: kind: bad server address \"x\""),
	C("kind a 1 /a server 198.18.3.1 0\n", "t.conf:7: kind: server count 0 out of range "
	  "(expected 1..254)"),
	C("kind a 1 /a server 198.18.3.1 2 server 198.18.4.1 2\n", "t.conf:7: kind: option server "
	  "given twice"),
	C("kind a 1 /a server 198.18.3.255 2\n", "t.conf:7: kind: a: server 198.18.3.255 + 2 "
	  "addresses ends at 198.18.4.0 (expected the pool to vary the last byte only"),
	C("kind a 1 /a server 198.18.3.1 3\n", "t.conf:7: kind: a: server pool of 3 addresses, the "
	  "server line on line 5 has 2 (expected as many: worker q sends to address q of each)"),
	C("kind a 1 /a server 2001:db8::1 2\n", "t.conf:7: kind: a: IPv6 server pool with an IPv4 "
	  "server line (expected the server line's family)"),
	C("kind a 1 /a server 198.18.1.5 2\n", "t.conf:7: kind: a: server pool overlaps the client "
	  "range on line 4 (expected the server's addresses, not ours)"),
	C("kind a 1 /a server 198.18.0.1 2\n", "t.conf:7: kind: a: server pool holds the port's "
	  "address 198.18.0.1"),
	C("kind a 1 /a server 198.18.2.2 2\n", "t.conf:7: kind: a: server pool overlaps the server "
	  "line on line 5 (expected the same addresses or none of them"),
	C("kind a 1 /a server 198.18.3.1 2\nkind b 1 /b server 198.18.3.2 2\n", "t.conf:8: kind: b: "
	  "server pool overlaps kind a's on line 7 (expected the same addresses or none of them)"),
	CD("cpu", "port 01:00.1 198.18.0.3 198.18.0.1\nclient 198.18.5.2 4\nserver 198.18.6.1 2\n"
	  "cpu 0 1 2 3\nkind a 1 /a server 198.18.3.1 2\n", "t.conf:11: kind: a: a server pool with "
	  "2 ports (expected one port"),
	/* a server's pools: its server lines after the first, one port */
	S("server 198.18.3.1 2\nserver 198.18.4.1 2\n", NULL),
	S("server 198.18.3.1 1\n", "t.conf:7: server: 1 addresses, line 5 has 2 (expected as many "
	  "in each pool: worker q answers address q of each)"),
	S("server 198.18.2.2 2\n", "t.conf:7: server: overlaps the pool on line 5 (expected each "
	  "server address in one pool)"),
	S("server 198.18.1.1 2\n", "t.conf:7: server: overlaps the client range on line 4"),
	/* 65536 x 10 client addresses x 2 pools x 3277 listen ports >= 2^32 */
	SD("listen", "listen 80 3276\nserver 198.18.3.1 2\n", NULL),
	SD("listen", "listen 80 3277\nserver 198.18.3.1 2\n", "t.conf:8: server: 2 pools make "
	   "4295229440 sockets per worker (65536 ports x 10 client addresses x pools x 3277 listen "
	   "ports; expected fewer than 2^32"),
	S("server 198.18.3.1 2\nprotocol udp\n", "t.conf:7: server: a second server line with "
	  "protocol udp"),
	S("server 198.18.3.1 2\nserver 198.18.4.1 2\nserver 198.18.5.1 2\nserver 198.18.6.1 2\n",
	  "t.conf:10: server: too many ranges (expected at most 4 \"server\" lines)"),
	SD("cpu", "port 01:00.1 198.18.0.3 198.18.0.1\nserver 198.18.3.1 2\nserver 198.18.4.1 2\n"
	  "cpu 0 1 2 3\n", "t.conf:9: server: 3 \"server\" lines for 2 \"port\" lines"),
	S("kind a 1 /\n", "t.conf:7: kind: only for mode client"),
	S("object /1k 1000\nobject /64k 65536\nobject /f file:" DP_SOURCE_DIR "/VERSION\n", NULL),
	S("object /a 1\nobject /a 2\n", "t.conf:8: object: path /a given twice, first on line 7"),
	S("object a 1\n", "t.conf:7: object: bad path \"a\""),
	S("object /a x\n", "t.conf:7: object: bad number \"x\""),
	S("object /a 1073741740\n", "t.conf:7: object: size 1073741740 out of range "
	  "(expected 0..1073741739)"),
	S("object /a file:/nonexistent/x\n", "t.conf:7: object: /nonexistent/x: cannot read"),
	S("object /a file:" DP_SOURCE_DIR "\n", "not a regular file"),
	S("object /a file:\n", "t.conf:7: object: file: without a file name"),
	S("object /a 1\npayload_size 100\n", "t.conf:8: payload_size: given with object lines"),
	S("object /a 1\nprotocol udp\n", "t.conf:7: object: with protocol udp"),
	C("object /a 1\n", "t.conf:7: object: only for mode server"),
};

static void
test_table(void **state)
{
	char err[DP_ERR_LEN];
	struct dp_config cfg;
	int failures = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct tcase *tc = &table[i];
		int rc;

		memset(err, 'X', sizeof(err));
		rc = parse_case(tc, &cfg, err, sizeof(err));
		if (tc->expect == NULL && rc != 0) {
			print_error("case %zu (%s): unexpected error: %s\n", i, tc->add, err);
			failures++;
		} else if (tc->expect != NULL && rc == 0) {
			print_error("case %zu (%s): parsed, expected: %s\n", i, tc->add, tc->expect);
			failures++;
		} else if (tc->expect != NULL && (strstr(err, tc->expect) == NULL
						  || strchr(err, '\n') != NULL)) {
			print_error("case %zu (%s):\n   got: %s\nexpect: %s\n", i, tc->add, err,
				    tc->expect);
			failures++;
		} else if (tc->expect == NULL && err[0] != '\0') {
			print_error("case %zu: err not cleared on success\n", i);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

static struct dp_config
parse_ok(const char *text)
{
	struct dp_config cfg;
	char err[DP_ERR_LEN] = "";

	if (dp_config_parse("t.conf", text, &cfg, err, sizeof(err)) != 0)
		fail_msg("unexpected error: %s", err);
	return cfg;
}

static struct dp_config
parse_client_plus(const char *extra)
{
	char text[4096];
	struct tcase tc = { 0, NULL, extra, NULL };

	build(&tc, text, sizeof(text));
	return parse_ok(text);
}

static void
test_defaults(void **state)
{
	struct dp_config cfg = parse_client_plus("");

	(void)state;
	assert_string_equal(cfg.file, "t.conf");
	assert_int_equal(cfg.mode, DP_MODE_CLIENT);
	assert_int_equal(cfg.n_cpus, 2);
	assert_int_equal(cfg.cpus[1], 1);
	assert_int_equal(cfg.n_ports, 1);
	assert_int_equal(cfg.ports[0].line, 3);
	assert_int_equal(cfg.ports[0].is_vdev, 0);
	assert_int_equal(cfg.cps, 1000);
	assert_int_equal(cfg.listen_port, 80);
	assert_int_equal(cfg.listen_num, 1);
	assert_int_equal(cfg.duration_us, 60000000ULL); /* dperf's default */
	assert_int_equal(cfg.send_window, 0);
	assert_int_equal(cfg.jumbo, 0);
	assert_string_equal(cfg.warnings, "");
	assert_int_equal(cfg.tcp_rst, 1);
	assert_int_equal(cfg.log_level, 7);
	assert_int_equal(cfg.launch_num, 4);
	assert_int_equal(cfg.keepalive, 0);
	assert_int_equal(cfg.keepalive_request_interval_us, 1000000);
	assert_int_equal(cfg.pipeline, 1);
	assert_int_equal(cfg.tx_burst, 8);
	assert_int_equal(cfg.slow_start, 30);
	assert_int_equal(cfg.wait, 3);
	assert_int_equal(cfg.mss, 1460);
	assert_int_equal(cfg.lport_min, 1);
	assert_int_equal(cfg.lport_max, 65535);
	assert_int_equal(cfg.retransmit_timeout_us, 2000000);
	assert_string_equal(cfg.http_path, "/");
	assert_string_equal(cfg.http_host, "");
	assert_int_equal(cfg.protocol, DP_PROTO_TCP);
	assert_int_equal(cfg.http_method, DP_HTTP_GET);
}

static void
test_values(void **state)
{
	struct dp_config cfg = parse_client_plus(
		"keepalive 10ms 100\nlog_level warning\ntos 0x1f\nslow_start 1m\nlisten 8080 4\n"
		"socket_mem 512,0\nvlan 100\ntcp_rst 0\nhttp_method post\nduration 1.5m\n");

	(void)state;
	assert_int_equal(cfg.keepalive, 1);
	assert_int_equal(cfg.keepalive_request_interval_us, 10000);
	assert_int_equal(cfg.keepalive_request_num, 100);
	assert_int_equal(cfg.log_level, 5);
	assert_int_equal(cfg.tos, 0x1f);
	assert_int_equal(cfg.slow_start, 60);
	assert_int_equal(cfg.listen_port, 8080);
	assert_int_equal(cfg.listen_num, 4);
	assert_string_equal(cfg.socket_mem, "512,0");
	assert_int_equal(cfg.vlan, 100);
	assert_int_equal(cfg.tcp_rst, 0);
	assert_int_equal(cfg.http_method, DP_HTTP_POST);
	assert_int_equal(cfg.duration_us, 90000000ULL);

	cfg = parse_client_plus("cc 2k\nkeepalive_request_interval 2ms\n");
	assert_int_equal(cfg.cc, 2000);
	assert_int_equal(cfg.keepalive, 1); /* the interval line turns keepalive on */
	assert_int_equal(cfg.keepalive_request_interval_us, 2000);

	/* cps defaults to 1000 when only cc is given */
	cfg = parse_ok("mode client\ncpu 0\nport 0000:01:00.0 198.18.0.1 198.18.0.2\n"
		       "client 198.18.1.2 10\nserver 198.18.2.1 1\ncc 10k\nkeepalive 1s\n");
	assert_int_equal(cfg.cps, 1000);

	cfg = parse_client_plus("jumbo\nsend_window 8\nclient_port_range 1000\n");
	assert_int_equal(cfg.jumbo, 1);
	assert_int_equal(cfg.jumbo_mtu, 9000);
	assert_int_equal(cfg.send_window, 8);
	assert_int_equal(cfg.lport_min, 1000);
	assert_int_equal(cfg.lport_max, 65535);
	assert_string_equal(cfg.warnings, "");
	cfg = parse_client_plus("jumbo 9500\n");
	assert_int_equal(cfg.jumbo_mtu, 9500);

	/* one payload size per server core; the largest is payload_size */
	cfg = parse_ok("mode server\ncpu 0 1\nport 0000:01:00.0 198.18.0.1 198.18.0.2\n"
		       "client 198.18.1.2 10\nserver 198.18.2.1 2\npayload_size 300 100\n");
	assert_int_equal(cfg.n_payload_sizes, 2);
	assert_int_equal(cfg.payload_sizes[0], 300);
	assert_int_equal(cfg.payload_sizes[1], 100);
	assert_int_equal(cfg.payload_size, 300);
	cfg = parse_client_plus("payload_size 64\n");
	assert_int_equal(cfg.n_payload_sizes, 0);
	assert_int_equal(cfg.payload_size, 64);

	/* packet_size: the frame less Ethernet, IP and TCP or UDP headers */
	cfg = parse_client_plus("packet_size 64\n");
	assert_int_equal(cfg.payload_size, 64 - 14 - 20 - 20);
	cfg = parse_client_plus("packet_size 64\nprotocol udp\n");
	assert_int_equal(cfg.payload_size, 64 - 14 - 20 - 8);
	assert_string_equal(cfg.warnings, "t.conf:7: packet_size: deprecated, use \"payload_size\"\n");

	/* packets-per-second mode: cps (base line 6) has no effect, and says so */
	cfg = parse_client_plus("protocol udp\ncc 10\nkeepalive 1ms\n");
	assert_int_equal(cfg.cc, 10);
	assert_string_equal(cfg.warnings, "t.conf:6: cps: no effect with protocol udp, cc and "
			    "keepalive (packets-per-second mode: the rate is cc / interval)\n");

	cfg = parse_client_plus("neigh_ignore\nflow_isolate\n");
	assert_int_equal(cfg.neigh_ignore, 1);
	assert_int_equal(cfg.flow_isolate, 1);

	/* client_hop: on a client it changes the walk; dperf ignores it on a server */
	cfg = parse_client_plus("client_hop\n");
	assert_int_equal(cfg.client_hop, 1);
	assert_string_equal(cfg.warnings, "");
	{
		char text[4096];
		struct tcase tc = { 1, NULL, "client_hop\n", NULL };

		build(&tc, text, sizeof(text));
		cfg = parse_ok(text);
		assert_string_equal(cfg.warnings, "t.conf:7: client_hop: no effect in mode server (the "
				    "client chooses its addresses and ports)\n");
	}

	/* dperf's warnings, one line each, FILE:LINE form */
	cfg = parse_client_plus("lport_range 1000 2000\nsimd512\n");
	assert_int_equal(cfg.lport_min, 1000);
	assert_int_equal(cfg.lport_max, 2000);
	assert_int_equal(cfg.simd512, 1);
	assert_string_equal(cfg.warnings,
			    "t.conf:7: lport_range: deprecated, use \"client_port_range\"\n"
			    "t.conf:8: simd512: no effect in dperf-live (packets are built from "
			    "templates, not with AVX-512 copies)\n");
}

static void
test_port_forms(void **state)
{
	struct dp_config cfg = parse_ok(
		"mode client\ncpu 0 1\n"
		"port net_memif0,role=client,socket=/tmp/m.sock 198.18.0.2 198.18.0.1 0A:bb:cc:dd:ee:01\n"
		"port 02:00.1 198.18.10.2 198.18.10.1\n"
		"client 198.18.1.2 4\nclient 198.18.11.2 4\n"
		"server 198.18.2.1 1\nserver 198.18.12.1 1\ncps 1\n");

	(void)state;
	assert_int_equal(cfg.n_ports, 2);
	assert_string_equal(cfg.ports[0].dev, "net_memif0,role=client,socket=/tmp/m.sock");
	assert_int_equal(cfg.ports[0].is_vdev, 1);
	assert_int_equal(cfg.ports[0].has_gw_mac, 1);
	assert_int_equal(cfg.ports[0].gw_mac[0], 0x0a);
	assert_int_equal(cfg.ports[0].gw_mac[5], 0x01);
	assert_string_equal(cfg.ports[1].dev, "02:00.1");
	assert_int_equal(cfg.ports[1].is_vdev, 0);
	assert_int_equal(cfg.ports[1].has_gw_mac, 0);
	assert_int_equal(cfg.ports[1].line, 4);
	assert_int_equal(cfg.n_clients, 2);
	assert_int_equal(cfg.clients[1].line, 6);
	assert_int_equal(cfg.n_servers, 2);
}

static void
test_ipv6(void **state)
{
	char err[DP_ERR_LEN];
	struct dp_config cfg = parse_ok(
		"mode client\ncpu 0\nport 01:00.0 2001:db8::2 2001:db8::1\n"
		"client 2001:db8:1::2 4\nserver 2001:db8:2::1 1\ncps 1k\n");

	(void)state;
	assert_int_equal(cfg.ports[0].local.family, 6);
	assert_int_equal(cfg.clients[0].start.family, 6);
	assert_int_equal(dp_config_parse("t.conf",
					 "mode client\ncpu 0\nport 01:00.0 2001:db8::2 2001:db8::1\n"
					 "client 198.18.1.2 4\nserver 2001:db8:2::1 1\ncps 1k\n",
					 &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "t.conf:4: client: IPv4 range on IPv6 ports (expected addresses "
				 "of the ports' family)");
	assert_int_equal(dp_config_parse("t.conf",
					 "mode client\ncpu 0 1\nport 01:00.0 2001:db8::2 2001:db8::1\n"
					 "port 02:00.0 198.18.0.2 198.18.0.1\n"
					 "client 2001:db8:1::2 4\nserver 2001:db8:2::1 1\ncps 1k\n",
					 &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.conf:4: port: IPv4 port after an IPv6 port"));
	assert_int_equal(dp_config_parse("t.conf",
					 "mode client\ncpu 0\nport 01:00.0 2001:db8::2 2001:db8::1\n"
					 "client 2001:db8:1::fe 4\nserver 2001:db8:2::1 1\ncps 1k\n",
					 &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.conf:4: client: 2001:db8:1::fe + 4 addresses ends at "
				    "2001:db8:1::101"));
}

static void
test_error_format(void **state)
{
	char err[DP_ERR_LEN];
	char small[16];
	struct dp_config cfg;
	const struct tcase tc = { 0, "cps", "cps 12x\n", NULL };

	(void)state;
	/* exactly one line, no trailing newline */
	assert_int_equal(parse_case(&tc, &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "t.conf:7: cps: bad number \"12x\" (expected a number like 100, 2k, 1.5m)");
	/* truncated, still terminated */
	assert_int_equal(parse_case(&tc, &cfg, small, sizeof(small)), -1);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	/* no buffer at all */
	assert_int_equal(parse_case(&tc, &cfg, NULL, 0), -1);
	/* cfg left untouched on error */
	memset(&cfg, 0x5a, sizeof(cfg));
	assert_int_equal(parse_case(&tc, &cfg, err, sizeof(err)), -1);
	assert_int_equal(cfg.n_ports, 0x5a5a5a5a);
	/* a line too long */
	char *big = malloc(3000);
	assert_non_null(big);
	memset(big, 'a', 2999);
	big[2999] = '\0';
	assert_int_equal(dp_config_parse("t.conf", big, &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.conf:1: line: too long"));
	free(big);
	/* empty text */
	assert_int_equal(dp_config_parse("empty.conf", "", &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "empty.conf: mode: missing (expected \"mode client\" or \"mode server\")");
	/* missing port: no line number */
	assert_int_equal(dp_config_parse("c.conf", "mode client\ncpu 0\ncps 1\n", &cfg, err,
					 sizeof(err)), -1);
	assert_string_equal(err, "c.conf: port: missing (expected at least one \"port\" line)");
}

static void
test_core_address_mismatch(void **state)
{
	char err[DP_ERR_LEN];
	struct dp_config cfg;

	(void)state;
	assert_int_equal(dp_config_parse("c.conf",
					 "mode client\ncpu 0 1\nport 01:00.0 198.18.0.2 198.18.0.1\n"
					 "client 198.18.1.2 4\ncps 1k\n\n\n\nserver 198.18.2.1 1\n",
					 &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "c.conf:9: server: 1 addresses for 2 worker cores on this port "
				 "(expected one server address per core, or \"rss\")");
	/* cores not divisible among ports */
	assert_int_equal(dp_config_parse("c.conf",
					 "mode client\ncpu 0-2\nport 01:00.0 198.18.0.2 198.18.0.1\n"
					 "port 02:00.0 198.18.10.2 198.18.10.1\n"
					 "client 198.18.1.2 4\nclient 198.18.11.2 4\n"
					 "server 198.18.2.1 1\nserver 198.18.12.1 1\ncps 1k\n",
					 &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "c.conf:2: cpu: 3 cores for 2 ports"));
	/* one server line for two ports */
	assert_int_equal(dp_config_parse("c.conf",
					 "mode client\ncpu 0-1\nport 01:00.0 198.18.0.2 198.18.0.1\n"
					 "port 02:00.0 198.18.10.2 198.18.10.1\n"
					 "client 198.18.1.2 4\nclient 198.18.11.2 4\n"
					 "server 198.18.2.1 1\ncps 1k\n",
					 &cfg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "c.conf:7: server: 1 \"server\" lines for 2 \"port\" lines"));
}

static void
test_number(void **state)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
	} cases[] = {
		{ "0", 0, 0 },           { "100", 0, 100 },
		{ "2k", 0, 2000 },       { "2K", 0, 2000 },
		{ "1.5m", 0, 1500000 },  { "1.5M", 0, 1500000 },
		{ "1g", 0, 1000000000 }, { "1.5k", 0, 1500 },
		{ "0.001k", 0, 1 },      { "18446744073709551615", 0, UINT64_MAX },
		{ "18446744073709551616", -1, 0 }, { "18446744073709552g", -1, 0 },
		{ "", -1, 0 },   { "-1", -1, 0 },  { "+1", -1, 0 },  { "12x", -1, 0 },
		{ "1.2345k", -1, 0 }, { "1.5", -1, 0 }, { "k", -1, 0 }, { "1.", -1, 0 },
		{ ".5k", -1, 0 }, { "1 ", -1, 0 }, { " 1", -1, 0 }, { "1kk", -1, 0 },
		{ "1t", -1, 0 }, { "0x10", -1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int rc = dp_parse_number(cases[i].s, &v);
		if (rc != cases[i].rc)
			fail_msg("dp_parse_number(\"%s\") = %d", cases[i].s, rc);
		if (rc == 0 && v != cases[i].v)
			fail_msg("dp_parse_number(\"%s\") -> %llu", cases[i].s, (unsigned long long)v);
		if (rc != 0 && v != 12345)
			fail_msg("dp_parse_number(\"%s\") wrote on error", cases[i].s);
	}
	assert_int_equal(dp_parse_number(NULL, &(uint64_t){ 0 }), -1);
}

static void
test_duration(void **state)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t us;
	} cases[] = {
		{ "100", 0, 100000000ULL },    { "100s", 0, 100000000ULL },
		{ "3.5m", 0, 210000000ULL },   { "2h", 0, 7200000000ULL },
		{ "1d", 0, 86400000000ULL },   { "1.5d", 0, 129600000000ULL },
		{ "10ms", 0, 10000 },          { "100us", 0, 100 },
		{ "0.5s", 0, 500000 },         { "1.5us", 0, 1 },
		{ "10MS", 0, 10000 },          { "0", 0, 0 },
		{ "", -1, 0 },   { "s", -1, 0 },  { "-1s", -1, 0 }, { "10x", -1, 0 },
		{ "10 s", -1, 0 }, { "10sec", -1, 0 }, { "1ns", -1, 0 },
		{ "999999999999999999d", -1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t us = 0;
		int rc = dp_parse_duration_us(cases[i].s, &us);
		if (rc != cases[i].rc)
			fail_msg("dp_parse_duration_us(\"%s\") = %d", cases[i].s, rc);
		if (rc == 0 && us != cases[i].us)
			fail_msg("dp_parse_duration_us(\"%s\") -> %llu", cases[i].s,
				 (unsigned long long)us);
	}
}

static void
test_ip(void **state)
{
	struct dp_ip ip;
	struct dp_range r;
	char buf[64];

	(void)state;
	assert_int_equal(dp_parse_ip("198.18.0.1", &ip), 0);
	assert_int_equal(ip.family, 4);
	assert_int_equal(ip.v4, htonl(0xc6120001));
	assert_string_equal(dp_ip_str(&ip, buf, sizeof(buf)), "198.18.0.1");
	assert_int_equal(dp_parse_ip("2001:db8::1", &ip), 0);
	assert_int_equal(ip.family, 6);
	assert_int_equal(ip.v6[0], 0x20);
	assert_int_equal(ip.v6[15], 1);
	assert_string_equal(dp_ip_str(&ip, buf, sizeof(buf)), "2001:db8::1");
	assert_int_equal(dp_parse_ip("198.18.0", &ip), -1);
	assert_int_equal(dp_parse_ip("", &ip), -1);
	assert_int_equal(dp_parse_ip("host", &ip), -1);
	memset(&ip, 0, sizeof(ip));
	assert_string_equal(dp_ip_str(&ip, buf, sizeof(buf)), "-");

	memset(&r, 0, sizeof(r));
	assert_int_equal(dp_parse_ip("198.18.1.2", &r.start), 0);
	r.num = 10;
	ip = dp_range_addr(&r, 0);
	assert_string_equal(dp_ip_str(&ip, buf, sizeof(buf)), "198.18.1.2");
	ip = dp_range_addr(&r, 9);
	assert_string_equal(dp_ip_str(&ip, buf, sizeof(buf)), "198.18.1.11");
	assert_int_equal(dp_parse_ip("2001:db8::fe", &r.start), 0);
	ip = dp_range_addr(&r, 1);
	assert_string_equal(dp_ip_str(&ip, buf, sizeof(buf)), "2001:db8::ff");
}

static void
test_tuple_space(void **state)
{
	struct dp_config cfg = parse_client_plus("");

	(void)state;
	assert_int_equal(dp_config_tuple_space(&cfg), 10ULL * 65535);
	cfg = parse_client_plus("lport_range 1000 1999\nlisten 80 4\n");
	assert_int_equal(dp_config_tuple_space(&cfg), 10ULL * 1000 * 4);
	dp_config_defaults(&cfg);
	assert_int_equal(dp_config_tuple_space(&cfg), 0);
}

/* Line numbers and the file name legitimately differ after a round trip. */
static void
normalize(struct dp_config *cfg)
{
	memset(cfg->file, 0, sizeof(cfg->file));
	memset(cfg->warnings, 0, sizeof(cfg->warnings)); /* lport_range's comes back as client_port_range */
	memset(cfg->kw_line, 0, sizeof(cfg->kw_line));
	for (int i = 0; i < DP_MAX_PORTS; i++) {
		cfg->ports[i].line = 0;
		cfg->servers[i].line = 0;
		cfg->vxlans[i].line = cfg->vxlans[i].vtep_local.line = 0;
		cfg->vxlans[i].vtep_remote.line = 0;
	}
	for (int i = 0; i < DP_MAX_CLIENT_RANGES; i++)
		cfg->clients[i].line = 0;
	for (int i = 0; i < DP_MAX_KINDS; i++)
		cfg->kinds[i].line = 0;
	for (int i = 0; i < DP_MAX_OBJECTS; i++)
		cfg->objects[i].line = 0;
}

static void
round_trip(const char *text)
{
	struct dp_config a = parse_ok(text), b;
	char dump[8192], err[DP_ERR_LEN];
	size_t n = dp_config_dump(&a, dump, sizeof(dump));

	assert_int_equal(n, strlen(dump));
	if (dp_config_parse("dump", dump, &b, err, sizeof(err)) != 0)
		fail_msg("dump does not parse: %s\n%s", err, dump);
	normalize(&a);
	normalize(&b);
	if (memcmp(&a, &b, sizeof(a)) != 0) {
		size_t off = 0;
		while (((char *)&a)[off] == ((char *)&b)[off])
			off++;
		fail_msg("round trip differs at offset %zu:\n%s", off, dump);
	}
}

/* dperf's vxlan files: IPv6 inside an IPv4 underlay; ours also the other
 * way round. mss comes down to fit the outer MTU. */
static void
test_vxlan(void **state)
{
	struct dp_config c = parse_ok(
		"mode client\ncpu 0\nprotocol udp\ncps 1m\nport 0000:03:00.1 6.6.215.3 6.6.215.1\n"
		"vxlan   1   01:02:03:04:05:aa   01:02:03:04:05:bb   6.6.215.3   1   6.6.213.3   1\n"
		"client aa::1:1:1:1 100\nserver bb::2:2:2:2 1\n");
	static const uint8_t sm[6] = { 1, 2, 3, 4, 5, 0xaa };

	(void)state;
	assert_int_equal(c.n_vxlans, 1);
	assert_int_equal(c.vxlans[0].vni, 1);
	assert_memory_equal(c.vxlans[0].inner_smac, sm, 6);
	assert_int_equal(c.vxlans[0].inner_dmac[5], 0xbb);
	assert_int_equal(c.vxlans[0].vtep_local.start.family, 4);
	assert_int_equal(c.vxlans[0].vtep_remote.start.v4, inet_addr("6.6.213.3"));
	assert_int_equal(c.vxlans[0].line, 6);
	assert_int_equal(c.mss, 1500 - 50 - 40 - 20); /* inner IPv6 */
	c = parse_ok("mode server\ncpu 0\nport 01:00.0 2001:db8::1 2001:db8::2\n"
		     "vxlan 9 02:00:00:00:00:01 02:00:00:00:00:02 2001:db8::1 1 2001:db8::2 1\n"
		     "client 198.18.1.2 4\nserver 198.18.2.1 1\njumbo\n");
	assert_int_equal(c.mss, 1460); /* fits 9000 - 70 - 20 - 20: unchanged */
	/* without vxlan the ranges must be of the ports' family */
	{
		char err[DP_ERR_LEN];

		assert_int_equal(dp_config_parse("t.conf", "mode server\ncpu 0\n"
						 "port 01:00.0 2001:db8::1 2001:db8::2\n"
						 "client 198.18.1.2 4\nserver 198.18.2.1 1\n",
						 &c, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "t.conf:4: client: IPv4 range on IPv6 ports"));
	}
}

/* Traffic mixes: what the kind and object lines store, the limits, and
 * a file without them (one kind, dperf's). */
static void
test_mix(void **state)
{
	char text[8192], err[DP_ERR_LEN];
	struct dp_config cfg;
	size_t pos;

	(void)state;
	cfg = parse_client_plus("kind small 70 /1k\nkind big 20 /64k size 65536 keepalive 3 http\n"
				"kind off 0 /none\nkind_seed 42\nkeepalive 1ms\n");
	assert_int_equal(cfg.n_kinds, 3);
	assert_int_equal(cfg.kind_seed, 42);
	assert_string_equal(cfg.kinds[0].name, "small");
	assert_string_equal(cfg.kinds[0].path, "/1k");
	assert_int_equal(cfg.kinds[0].weight, 70);
	assert_int_equal(cfg.kinds[0].has_size + cfg.kinds[0].has_keepalive + cfg.kinds[0].has_proto, 0);
	assert_int_equal(cfg.kinds[0].line, 7);
	assert_string_equal(cfg.kinds[1].name, "big");
	assert_int_equal(cfg.kinds[1].weight, 20);
	assert_int_equal(cfg.kinds[1].has_size, 1);
	assert_int_equal(cfg.kinds[1].size, 65536);
	assert_int_equal(cfg.kinds[1].has_keepalive, 1);
	assert_int_equal(cfg.kinds[1].keepalive_num, 3);
	assert_int_equal(cfg.kinds[1].has_proto, 1);
	assert_int_equal(cfg.kinds[1].proto, DP_PROTO_HTTP);
	assert_int_equal(cfg.kinds[2].weight, 0);

	/* a kind's own server pool: stored, dumped, read back; the others
	 * have none (the server line's) */
	cfg = parse_client_plus("kind m 1 /m\nkind p 1 /p server 198.18.3.1 2 http\n");
	assert_int_equal(cfg.kinds[0].has_srv, 0);
	assert_int_equal(cfg.kinds[1].has_srv, 1);
	assert_int_equal(cfg.kinds[1].srv.num, 2);
	assert_int_equal(cfg.kinds[1].srv.start.v4, inet_addr("198.18.3.1"));
	dp_config_dump(&cfg, text, sizeof(text));
	assert_non_null(strstr(text, "\nkind p 1 /p http server 198.18.3.1 2\n"));
	{
		struct dp_config back;

		assert_int_equal(dp_config_parse("dump", text, &back, err, sizeof(err)), 0);
		assert_int_equal(back.kinds[1].has_srv, 1);
		assert_int_equal(back.kinds[1].srv.start.v4, cfg.kinds[1].srv.start.v4);
		assert_int_equal(back.kinds[1].srv.num, 2);
	}
	/* IPv6: a pool in the server range's /96 */
	{
		struct dp_config c6;

		assert_int_equal(dp_config_parse("t.conf", "mode client\ncpu 0\n"
						 "port 01:00.0 2001:db8::1 2001:db8::2\n"
						 "client 2001:db8::1:2 4\nserver 2001:db8::2:1 1\ncps 1k\n"
						 "kind a 1 /a server 2001:db8::3:1 1\n", &c6, err,
						 sizeof(err)), 0);
		assert_int_equal(c6.kinds[0].srv.start.family, 6);
		assert_int_equal(dp_config_parse("t.conf", "mode client\ncpu 0\n"
						 "port 01:00.0 2001:db8::1 2001:db8::2\n"
						 "client 2001:db8::1:2 4\nserver 2001:db8::2:1 1\ncps 1k\n"
						 "kind a 1 /a server 2001:db9::3:1 1\n", &c6, err,
						 sizeof(err)), -1);
		assert_non_null(strstr(err, "t.conf:7: kind: a: server pool outside the server "
				       "range's /96"));
	}

	/* http and https kinds in one file: protocol https, each its own */
	cfg = parse_client_plus("protocol https\nkind p 60 /1k http\nkind t 40 /16k https\n"
				"kind d 1 /x\n");
	assert_int_equal(cfg.n_kinds, 3);
	assert_int_equal(cfg.kinds[0].proto, DP_PROTO_HTTP);
	assert_int_equal(cfg.kinds[1].proto, DP_PROTO_HTTPS);
	assert_int_equal(cfg.kinds[2].has_proto, 0);
	/* plain_http: stored, dumped, read back */
	cfg = parse_ok("mode server\ncpu 0\nport 01:00.0 198.18.0.1 198.18.0.2\n"
		       "client 198.18.1.2 4\nserver 198.18.0.1 1\nprotocol https\ntls_cert " CERT
		       "\ntls_key " KEY "\nplain_http\n");
	assert_int_equal(cfg.plain_http, 1);
	dp_config_dump(&cfg, text, sizeof(text));
	assert_non_null(strstr(text, "\nplain_http\n"));
	{
		struct dp_config back;

		assert_int_equal(dp_config_parse("dump", text, &back, err, sizeof(err)), 0);
		assert_int_equal(back.plain_http, 1);
	}

	/* without kind lines: no kinds, no objects, seed 0 */
	cfg = parse_client_plus("");
	assert_int_equal(cfg.n_kinds, 0);
	assert_int_equal(cfg.n_objects, 0);
	assert_int_equal(cfg.kind_seed, 0);

	/* 16 kinds parse, a 17th is refused on its line */
	pos = (size_t)snprintf(text, sizeof(text), "mode client\ncpu 0\ncps 1k\n"
			       "port 01:00.0 198.18.0.1 198.18.0.2\nclient 198.18.1.2 4\n"
			       "server 198.18.2.1 1\n");
	for (int i = 0; i < DP_MAX_KINDS; i++)
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "kind k%d %d /p%d\n", i, i, i);
	assert_int_equal(dp_config_parse("t.conf", text, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cfg.n_kinds, DP_MAX_KINDS);
	snprintf(text + pos, sizeof(text) - pos, "kind k16 1 /p16\n");
	assert_int_equal(dp_config_parse("t.conf", text, &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "t.conf:23: kind: too many kinds (expected at most 16 \"kind\" lines)");

	/* objects: sizes and a file's; 31 parse, a 32nd is refused */
	cfg = parse_ok("mode server\ncpu 0\nport 01:00.0 198.18.0.1 198.18.0.2\n"
		       "client 198.18.1.2 4\nserver 198.18.0.1 1\nobject /a 0\nobject /b 1m\n"
		       "object /v file:" DP_SOURCE_DIR "/VERSION\n");
	assert_int_equal(cfg.n_objects, 3);
	assert_string_equal(cfg.objects[0].path, "/a");
	assert_int_equal(cfg.objects[0].size, 0);
	assert_int_equal(cfg.objects[1].size, 1000000);
	assert_string_equal(cfg.objects[2].file, DP_SOURCE_DIR "/VERSION");
	assert_true(cfg.objects[2].size > 0);
	assert_int_equal(cfg.objects[2].line, 8);
	pos = (size_t)snprintf(text, sizeof(text), "mode server\ncpu 0\n"
			       "port 01:00.0 198.18.0.1 198.18.0.2\nclient 198.18.1.2 4\n"
			       "server 198.18.0.1 1\n");
	for (int i = 0; i < DP_MAX_OBJECTS; i++)
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "object /o%d %d\n", i, i);
	assert_int_equal(dp_config_parse("t.conf", text, &cfg, err, sizeof(err)), 0);
	snprintf(text + pos, sizeof(text) - pos, "object /o31 1\n");
	assert_int_equal(dp_config_parse("t.conf", text, &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "t.conf:37: object: too many objects (expected at most 31 "
			    "\"object\" lines)");
}

/* The largest traffic mix dumps whole into the memzone's config_text
 * (the readers show it) and parses back: 16 kinds of the longest names,
 * paths and options; 31 objects of the longest paths and file paths. */
static void
test_mix_dump_fits(void **state)
{
	static char text[65536], dump[sizeof(((struct dp_shm *)0)->config_text) + 1], err[DP_ERR_LEN];
	char path[DP_KIND_PATH_LEN], file[DP_DEV_LEN];
	struct dp_config cfg, again;
	size_t pos, n, len;

	(void)state;
	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	pos = (size_t)snprintf(text, sizeof(text), "mode client\ncpu 0\ncps 1k\nkeepalive 1ms\n"
			       "port 01:00.0 198.18.0.1 198.18.0.2\nclient 198.18.1.2 4\n"
			       "server 198.18.2.1 1\nkind_seed 4294967295\n");
	for (int i = 0; i < DP_MAX_KINDS; i++)
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "kind k%028d%02d 1000000 %.*s%02d "
					"size 1073741739 keepalive 1000000000 http\n", 0, i,
					DP_KIND_PATH_LEN - 4, path, i);
	cfg = parse_ok(text);
	len = dp_config_dump(&cfg, dump, sizeof(dump));
	assert_true(len < sizeof(dump) - 1);
	if (dp_config_parse("dump", dump, &again, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	/* the server: file paths of DP_DEV_LEN - 1 characters, "/./" padding */
	n = (size_t)snprintf(file, sizeof(file), "%s", DP_SOURCE_DIR);
	while (n + strlen("/./VERSION") < sizeof(file) - 3)
		n += (size_t)snprintf(file + n, sizeof(file) - n, "/.");
	snprintf(file + n, sizeof(file) - n, "/VERSION");
	pos = (size_t)snprintf(text, sizeof(text), "mode server\ncpu 0\nport 01:00.0 198.18.0.1 "
			       "198.18.0.2\nclient 198.18.1.2 4\nserver 198.18.0.1 1\n");
	for (int i = 0; i < DP_MAX_OBJECTS; i++)
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "object %.*s%02d file:%s\n",
					DP_KIND_PATH_LEN - 4, path, i, file);
	cfg = parse_ok(text);
	len = dp_config_dump(&cfg, dump, sizeof(dump));
	assert_true(len < sizeof(dump) - 1);
	if (dp_config_parse("dump", dump, &again, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(again.n_objects, DP_MAX_OBJECTS);
}

static void
test_dump_round_trip(void **state)
{
	char text[4096];
	struct tcase tc = { 0, NULL, NULL, NULL };

	(void)state;
	build(&tc, text, sizeof(text));
	round_trip(text);
	tc.server = 1;
	build(&tc, text, sizeof(text));
	round_trip(text);
	round_trip("mode client\ncpu 3 1 2 0\nsocket_mem 1024,1024\n"
		   "port net_memif0,role=client,socket=/tmp/m.sock 198.18.0.2 198.18.0.1 aa:bb:cc:dd:ee:ff\n"
		   "port 0000:02:00.1 198.18.10.2 198.18.10.1\n"
		   "client 198.18.1.2 4\nclient 198.18.11.2 200\n"
		   "server 198.18.2.1 2\nserver 198.18.12.1 2\n"
		   "listen 8080 3\nduration 1.5s\ncps 1.5m\ncc 10k\nflood\nlaunch_num 7\n"
		   "change_dip 198.18.3.1 3 4\n"
		   "disable_ack\n" /* a FLAG: dumped once (fuzz_config found it twice) */
		   "payload_size 700\npayload_random\nkeepalive 1500us 10\npipeline 3\ntx_hold 5us\n"
		   "protocol http\ntx_burst 32\nslow_start 0\nwait 0\nmss 1000\ntos 0xa\nvlan 7\n"
		   "jumbo\nrss\nquiet\ndaemon\nfast_close\ntcp_rst 0\nhttp_host example.com\n"
		   "http_path /a/b?c=d\nhttp_method POST\nlport_range 100 200\n"
		   "retransmit_timeout 250ms\nlog_level 3\n");
	round_trip("mode client\ncpu 0\ncps 1k\nport 01:00.0 198.18.0.1 198.18.0.2\n"
		   "client 198.18.1.2 4\nserver 198.18.2.1 1\nprotocol https\ntls_version 1.2\n"
		   "tls_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:TLS_AES_128_GCM_SHA256\n"
		   "tls_groups P-256\ntls_resume ids\ntls_sni dperf.test\ntls_alpn h2,http/1.1\n"
		   "tls_verify 1\ntls_ca " CERT "\n");
	round_trip("mode server\ncpu 0\nport 01:00.0 198.18.0.1 198.18.0.2\n"
		   "client 198.18.1.2 4\nserver 198.18.0.1 1\nprotocol tls\ntls_cert " CERT "\n"
		   "tls_key " KEY "\ntls_resume tickets\n");
	round_trip("mode server\ncpu 0 1\nport bond2:2(net_af_packet0,iface=v0,01:00.0) 198.18.0.1 "
		   "198.18.0.2\nport bond4:1(02:00.0,02:00.1) 198.18.10.1 198.18.10.2\n"
		   "client 198.18.1.2 4\nserver 198.18.0.1 1\nserver 198.18.10.1 1\n");
	round_trip("mode server\ncpu 0\nport 01:00.0 2001:db8::1 2001:db8::2\n"
		   "client 2001:db8:1::2 4\nserver 2001:db8:2::1 1\nprotocol udp\nkeepalive\n");
	round_trip("mode client\ncpu 0\ncps 1k\nport 01:00.0 198.18.0.1 198.18.0.2\n"
		   "client 198.18.1.2 4\nserver 198.18.2.1 1\nkeepalive 1ms\nkind_seed 7\n"
		   "kind a 70 /1k\nkind b 20 /64k size 65536 keepalive 3 http\nkind c 0 /x?y=1\n");
	round_trip("mode server\ncpu 0\nport 01:00.0 198.18.0.1 198.18.0.2\n"
		   "client 198.18.1.2 4\nserver 198.18.0.1 1\nobject /a 0\nobject /b 1m\n"
		   "object /v file:" DP_SOURCE_DIR "/VERSION\n");
	round_trip("mode client\ncpu 0 1 2 3\ncps 1k\nport 01:00.0 198.18.0.1 198.18.0.2\n"
		   "port 02:00.0 198.18.5.1 198.18.5.2\n"
		   "vxlan 16777215 02:00:00:00:00:01 0a:00:00:00:00:02 198.18.0.1 2 198.18.0.9 2\n"
		   "vxlan 7 02:00:00:00:00:03 0a:00:00:00:00:04 198.18.5.1 2 198.18.5.9 1\n"
		   "client 2001:db8:1::2 4\nclient 2001:db8:1::12 4\n"
		   "server 2001:db8:2::1 2\nserver 2001:db8:2::11 2\n");
}

/* dperf -k lists every keyword of dperf 1.9.0 (src/config.c at 271ebe5,
 * plus those its 1.9 notes add): each supported with its range and
 * default, or refused with its reason. */
static void
test_keywords_listing(void **state)
{
	static const char *const dperf_19[] = {
		"daemon", "keepalive", "pipeline", "mode", "cpu", "socket_mem", "port", "duration",
		"cps", "cc", "flood", "launch_num", "client", "server", "change_dip", "listen",
		"payload_random", "payload_size", "send_window", "packet_size", "mss", "protocol",
		"tx_burst", "slow_start", "wait", "vxlan", "vlan", "kni", "tos", "jumbo", "rss",
		"quiet", "tcp_rst", "http_host", "http_path", "http_method", "lport_range",
		"client_port_range", "client_hop", "simd512", "fast_close", "clear_screen",
		"log_level", "disable_ack", "retransmit_timeout", "payload_file", "neigh_ignore",
		"flow_isolate",
	};
	static char buf[16384];
	size_t n;

	(void)state;
	buf[0] = '\n'; /* so the first entry too starts after a newline */
	n = dp_config_keywords(buf + 1, sizeof(buf) - 1);
	assert_true(n > 0 && n < sizeof(buf) - 2);
	for (size_t i = 0; i < sizeof(dperf_19) / sizeof(dperf_19[0]); i++) {
		char head[64];
		const char *at, *help;
		size_t l = (size_t)snprintf(head, sizeof(head), "\n%s", dperf_19[i]);

		/* the entry: at the start of a line, then arguments or the end of the line */
		at = strstr(buf, head);
		while (at != NULL && at[l] != ' ' && at[l] != '\n')
			at = strstr(at + 1, head);
		if (at == NULL)
			fail_msg("dperf keyword \"%s\" missing from dperf -k", dperf_19[i]);
		help = strchr(at + l, '\n');
		assert_non_null(help);
		if (strncmp(help, "\n    ", 5) != 0 || help[5] == '\n')
			fail_msg("\"%s\" has no help line", dperf_19[i]);
	}
	/* every numeric keyword says its default or range */
	assert_non_null(strstr(buf, "send_window NUMBER\n    2..16;"));
	assert_non_null(strstr(buf, "jumbo [MTU]\n    MTU 9000..9710; default 9000"));
	assert_non_null(strstr(buf, "kni\n    refused: KNI was removed from DPDK in 23.11"));
}

/* dperf -k and the parser read one table: for every numeric keyword, the
 * range -k gives is the one the parser enforces. Its ends are not refused
 * as out of range (another rule may still refuse them: mss 9000 without
 * jumbo), one past either end is, with the range -k gives. */
static void
test_value_ranges(void **state)
{
	static char buf[16384];
	char text[4096], err[DP_ERR_LEN], line[128], want[160];
	const char *at;
	int checked = 0;

	(void)state;
	dp_config_keywords(buf, sizeof(buf));
	for (at = buf; (at = strstr(at, " NUMBER\n    ")) != NULL; at++) {
		const char *name = at, *help = at + 12, *eol = strchr(help, '\n');
		char kw[64], range[48];
		unsigned long long lo, hi;
		const char *r;
		int n = 0;

		while (name > buf && name[-1] != '\n')
			name--;
		snprintf(kw, sizeof(kw), "%.*s", (int)(at - name), name);
		/* a value row's help starts "LO..HI; default" */
		r = strstr(help, "; default");
		if (sscanf(help, "%llu..%llu%n", &lo, &hi, &n) != 2 || help[n] != ';' || r == NULL ||
		    r > eol)
			continue; /* a handler's keyword: its own text */
		snprintf(range, sizeof(range), "%llu..%llu", lo, hi);
		for (int k = 0; k < 4; k++) {
			unsigned long long v = k == 0 ? lo : k == 1 ? hi : k == 2 ? lo - 1 : hi + 1;
			struct tcase tc = { 0, kw, line, NULL };
			struct dp_config cfg;
			int rc;

			if (k == 2 && lo == 0)
				continue;
			snprintf(line, sizeof(line), "%s %llu\n", kw, v);
			build(&tc, text, sizeof(text));
			rc = dp_config_parse("t.conf", text, &cfg, err, sizeof(err));
			snprintf(want, sizeof(want), "%s: %llu out of range (expected %s)", kw, v, range);
			if (k < 2 && rc != 0 && strstr(err, "out of range") != NULL)
				fail_msg("%s %llu: refused as out of range, -k says %s: %s", kw, v, range, err);
			if (k >= 2 && (rc == 0 || strstr(err, want) == NULL))
				fail_msg("%s %llu: expected \"%s\", got %s", kw, v, want, rc ? err : "accepted");
		}
		checked++;
	}
	print_message("%d numeric keywords checked against dperf -k\n", checked);
	assert_true(checked >= 8);
}

static void
test_dump_truncates(void **state)
{
	struct dp_config cfg = parse_client_plus("");
	char full[8192], small[32];
	size_t n = dp_config_dump(&cfg, full, sizeof(full));

	(void)state;
	assert_true(n > sizeof(small));
	assert_int_equal(dp_config_dump(&cfg, small, sizeof(small)), sizeof(small) - 1);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, full, sizeof(small) - 1);
	assert_int_equal(dp_config_dump(&cfg, small, 0), 0);
	assert_non_null(strstr(full, "mode client\ncpu 0 1\n"));
}

static void
test_load(void **state)
{
	char path[] = "/tmp/dperf-test-config-XXXXXX";
	char err[DP_ERR_LEN];
	struct dp_config cfg;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("mode server\ncpu 0\nport 01:00.0 198.18.0.1 198.18.0.2\n"
	      "client 198.18.1.2 4\nserver 198.18.2.1 1\nbogus\n", f);
	fclose(f);
	assert_int_equal(dp_config_load(path, &cfg, err, sizeof(err)), -1);
	char want[256];
	snprintf(want, sizeof(want), "%s:6: bogus: unknown keyword", path);
	assert_string_equal(err, want);

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("mode server\ncpu 0\nport 01:00.0 198.18.0.1 198.18.0.2\n"
	      "client 198.18.1.2 4\nserver 198.18.2.1 1", f); /* no final newline */
	fclose(f);
	assert_int_equal(dp_config_load(path, &cfg, err, sizeof(err)), 0);
	assert_string_equal(cfg.file, path);
	assert_int_equal(cfg.servers[0].line, 5);
	unlink(path);

	assert_int_equal(dp_config_load("/nonexistent/x.conf", &cfg, err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/x.conf: cannot open: No such file or directory");
}

/* Every shipped example config parses. The directory is found from the
 * source tree (the Makefile passes it), not the current directory: a
 * test that skipped itself when run elsewhere could not fail. */
static void
test_shipped_configs(void **state)
{
	DIR *d = opendir(DP_SOURCE_DIR "/conf");
	struct dirent *e;
	int n = 0;

	(void)state;
	if (d == NULL)
		fail_msg("%s/conf: cannot open: %s", DP_SOURCE_DIR, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char path[1024], err[DP_ERR_LEN];
		struct dp_config cfg;

		if (len < 5 || strcmp(e->d_name + len - 5, ".conf") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/conf/%s", DP_SOURCE_DIR, e->d_name);
		if (dp_config_load(path, &cfg, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		n++;
	}
	closedir(d);
	assert_true(n >= 8);
}

/* dp_env_seconds: the variable shortens the wait, never lengthens it;
 * anything that is not a whole number of 1..dflt keeps the default. */
static void
test_env_seconds(void **state)
{
	(void)state;
	unsetenv("DP_TEST_WAIT_S");
	assert_int_equal(dp_env_seconds("DP_TEST_WAIT_S", 10), 10);
	setenv("DP_TEST_WAIT_S", "4", 1);
	assert_int_equal(dp_env_seconds("DP_TEST_WAIT_S", 10), 4);
	setenv("DP_TEST_WAIT_S", "10", 1);
	assert_int_equal(dp_env_seconds("DP_TEST_WAIT_S", 10), 10);
	const char *bad[] = { "", "0", "-3", "11", "4s", "x", "99999999999999999999" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("DP_TEST_WAIT_S", bad[i], 1);
		assert_int_equal(dp_env_seconds("DP_TEST_WAIT_S", 10), 10);
	}
	unsetenv("DP_TEST_WAIT_S");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_port_forms),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_core_address_mismatch),
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_ip),
		cmocka_unit_test(test_tuple_space),
		cmocka_unit_test(test_vxlan),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_mix_dump_fits),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_keywords_listing),
		cmocka_unit_test(test_value_ranges),
		cmocka_unit_test(test_dump_truncates),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_shipped_configs),
		cmocka_unit_test(test_env_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
