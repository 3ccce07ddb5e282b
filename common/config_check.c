/* SPDX-License-Identifier: BSD-3-Clause
 * The config file's cross-keyword rules, checked once every line is read
 * (config_parse.c): what one row cannot say alone (a client's targets,
 * address families, cores per port, sizes against mss, vxlan against the
 * ports). Each error names the line of the keyword it blames.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_err.h"
#include "config_int.h"


static int
v_required(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	if (cfg->mode == DP_MODE_NONE)
		return err_at(p, 0, "mode", "missing (expected \"mode client\" or \"mode server\")");
	if (cfg->n_cpus == 0)
		return err_at(p, 0, "cpu", "missing (expected a line like \"cpu 0 1\" or \"cpu 0-3\")");
	if (cfg->n_ports == 0)
		return err_at(p, 0, "port", "missing (expected at least one \"port\" line)");
	return 0;
}

static int
v_ranges_family(struct pctx *p, const char *kw, const struct dp_range *r, uint32_t n, int fam)
{
	for (uint32_t i = 0; i < n; i++)
		if (r[i].start.family != fam)
			return err_at(p, r[i].line, kw, "IPv%d range on IPv%d ports (expected "
				      "addresses of the ports' family)", r[i].start.family, fam);
	return 0;
}

/* One address family for the ports and one for the ranges: the same,
 * except inside VXLAN, where the ranges are the inner addresses (the
 * server range's family, checked against the rest). */
static int
v_family(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	int fam = cfg->ports[0].local.family;

	for (uint32_t i = 1; i < cfg->n_ports; i++)
		if (cfg->ports[i].local.family != fam)
			return err_at(p, cfg->ports[i].line, "port", "IPv%d port after an IPv%d "
				      "port (expected all ports of one address family)",
				      cfg->ports[i].local.family, fam);
	if (cfg->n_vxlans != 0 && cfg->n_servers != 0)
		fam = cfg->servers[0].start.family;
	if (v_ranges_family(p, "client", cfg->clients, cfg->n_clients, fam) < 0)
		return -1;
	return v_ranges_family(p, "server", cfg->servers, cfg->n_servers, fam);
}

static int
v_range_count(struct pctx *p, const char *kw, uint32_t n, const struct dp_range *r)
{
	const struct dp_config *cfg = p->cfg;

	if (n == 0 && strcmp(kw, "client") == 0 && cfg->mode == DP_MODE_SERVER)
		return err_at(p, 0, kw, "missing (expected the client address range this server "
			      "accepts)");
	if (n == 0)
		return err_at(p, 0, kw, "missing (expected one \"%s\" line per \"port\" line)", kw);
	if (strcmp(kw, "client") == 0 && cfg->mode == DP_MODE_SERVER)
		return 0; /* a server accepts any number of client ranges */
	if (strcmp(kw, "server") == 0 && cfg->mode == DP_MODE_SERVER && cfg->n_ports == 1)
		return 0; /* one port: its address pools, v_server_pools */
	if (n != cfg->n_ports)
		return err_at(p, r[n - 1].line, kw, "%u \"%s\" lines for %u \"port\" lines "
			      "(expected one \"%s\" line per \"port\" line)", n, kw, cfg->n_ports, kw);
	return 0;
}

static int
v_cores(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t per_port;

	if (cfg->n_cpus % cfg->n_ports != 0)
		return err_at(p, line_of(p, "cpu"), "cpu", "%u cores for %u ports (expected the "
			      "same number of cores on every port)", cfg->n_cpus, cfg->n_ports);
	per_port = cfg->n_cpus / cfg->n_ports;
	/* dperf: with vxlan, one server address per core even with rss (each
	 * core has its own VTEP and its own inner server address) */
	for (uint32_t i = 0; i < cfg->n_servers && (!cfg->rss || cfg->n_vxlans); i++)
		if (cfg->servers[i].num != per_port)
			return err_at(p, cfg->servers[i].line, "server", "%u addresses for %u "
				      "worker cores on this port (expected one server address per "
				      "core%s)", cfg->servers[i].num, per_port,
				      cfg->n_vxlans ? ", as vxlan requires" : ", or \"rss\"");
	return 0;
}

/* A keyword that only applies to mode client. */
static int
v_client_only(struct pctx *p, const char *kw)
{
	uint32_t line = line_of(p, kw);

	if (p->cfg->mode != DP_MODE_CLIENT && line != 0)
		return err_at(p, line, kw, "only for mode client (expected no \"%s\" line in mode "
			      "server)", kw);
	return 0;
}

/* ---- dperf's rules ---- */

/* The line of "keepalive", or of its older spelling. */
static uint32_t
keepalive_line(const struct pctx *p)
{
	uint32_t a = line_of(p, "keepalive"), b = line_of(p, "keepalive_request_interval");

	return a != 0 ? a : b;
}

/* dperf's UDP packets-per-second mode (cc + keepalive): each of cc
 * connections sends one datagram per interval. Here the rate is cc /
 * interval from the start (ramped by slow start); dperf opens the cc
 * connections at cps first, so cps has no effect here and says so. */
static int
v_pps(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "cps");

	if (cfg->keepalive_request_interval_us == 0)
		return err_at(p, keepalive_line(p), "keepalive", "interval 0 with protocol udp and "
			      "cc (expected a positive interval: each connection sends one datagram "
			      "per interval)");
	if (line != 0)
		warn_at(p, line, "cps", "no effect with protocol udp, cc and keepalive "
			"(packets-per-second mode: the rate is cc / interval)");
	return 0;
}

/* A client's targets, as dperf: cc needs keepalive; cps defaults to 1000
 * when only cc is given; flood with keepalive needs an interval above 0. */
static int
v_targets(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;

	if (cfg->mode != DP_MODE_CLIENT)
		return 0;
	if (cfg->cc != 0 && !cfg->keepalive)
		return err_at(p, line_of(p, "cc"), "cc", "needs keepalive (expected a line like "
			      "\"keepalive 1s\": connections are kept open and send a request per "
			      "interval)");
	if (cfg->cps == 0 && cfg->cc != 0)
		cfg->cps = DP_DEFAULT_CPS;
	if (cfg->cps == 0 && !cfg->flood)
		return err_at(p, 0, "cps", "missing (expected \"cps NUMBER\" in mode client, "
			      "\"cc NUMBER\" with keepalive, or \"flood\")");
	if (cfg->flood && cfg->keepalive && cfg->keepalive_request_interval_us == 0)
		return err_at(p, keepalive_line(p), "keepalive", "interval 0 with flood (expected "
			      "a positive interval: flood sends one packet per connection per interval)");
	if (cfg->protocol == DP_PROTO_UDP && cfg->cc != 0)
		return v_pps(p);
	return 0;
}

/* dperf-live: a server with one port may have several server lines, its
 * address pools (the kinds' pools of its clients): worker q answers
 * address q of each. As many addresses in each, one family and, with
 * IPv6, one /96 (tuples carry the last 4 bytes), no address twice (the
 * socket table's index has the pool in it), none a client's. */
static int
v_server_pools(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	const struct dp_range *first = &cfg->servers[0];

	if (cfg->mode != DP_MODE_SERVER || cfg->n_ports != 1 || cfg->n_servers < 2)
		return 0; /* several ports: dperf's server line per port (v_range_count) */
	for (uint32_t i = 1; i < cfg->n_servers; i++) {
		const struct dp_range *r = &cfg->servers[i];

		if (cfg->n_vxlans != 0)
			return err_at(p, r->line, "server", "a second server line with vxlan (expected "
				      "one: a server pool per kind is not for VXLAN)");
		if (cfg->protocol == DP_PROTO_UDP)
			return err_at(p, r->line, "server", "a second server line with protocol udp "
				      "(expected one: server pools are for the kinds of HTTP clients)");
		if (r->num != first->num)
			return err_at(p, r->line, "server", "%u addresses, line %u has %u (expected "
				      "as many in each pool: worker q answers address q of each)",
				      r->num, first->line, first->num);
		if (r->start.family == 6 && memcmp(r->start.v6, first->start.v6, 12) != 0)
			return err_at(p, r->line, "server", "outside line %u's /96 (expected the "
				      "first 12 bytes of its address: tuples carry the last 4)",
				      first->line);
		for (uint32_t j = 0; j < i; j++)
			if (ranges_overlap(r, &cfg->servers[j]))
				return err_at(p, r->line, "server", "overlaps the pool on line %u "
					      "(expected each server address in one pool)",
					      cfg->servers[j].line);
	}
	{
		/* a worker's sockets: client ports x client addresses x pools x
		 * listen ports, indexed in 32 bits (state/sock_table.h) */
		uint64_t n_cip = 0, n_sk;

		for (uint32_t j = 0; j < cfg->n_clients; j++)
			n_cip += cfg->clients[j].num;
		n_sk = 65536ULL * n_cip * cfg->n_servers * cfg->listen_num;
		if (n_sk >= UINT32_MAX)
			return err_at(p, cfg->servers[cfg->n_servers - 1].line, "server", "%u pools "
				      "make %llu sockets per worker (65536 ports x %llu client addresses "
				      "x pools x %u listen ports; expected fewer than 2^32: fewer pools, "
				      "client addresses or listen ports)", cfg->n_servers,
				      (unsigned long long)n_sk, (unsigned long long)n_cip,
				      cfg->listen_num);
	}
	for (uint32_t i = 0; i < cfg->n_servers; i++)
		for (uint32_t j = 0; j < cfg->n_clients; j++)
			if (ranges_overlap(&cfg->servers[i], &cfg->clients[j]))
				return err_at(p, cfg->servers[i].line, "server", "overlaps the client "
					      "range on line %u (expected the server's addresses, not its "
					      "clients')", cfg->clients[j].line);
	return 0;
}

/* Client ranges must not overlap (ranges_overlap, config_parse.c): a
 * server finds a connection's socket from the client address, and an
 * address in two ranges has two. */
static int
v_client_ranges(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	for (uint32_t i = 1; i < cfg->n_clients; i++)
		for (uint32_t j = 0; j < i; j++)
			if (ranges_overlap(&cfg->clients[i], &cfg->clients[j]))
				return err_at(p, cfg->clients[i].line, "client", "overlaps the range "
					      "on line %u (expected each client address in one range)",
					      cfg->clients[j].line);
	return 0;
}

/* dperf's change_dip: a flooding client only, destinations of the ports'
 * family (IPv6: in the server range's /96, as the tuples carry the last 32
 * bits), at least one per core. */
static int
v_change_dip(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "change_dip");

	if (cfg->change_dip_num == 0)
		return 0;
	if (cfg->mode != DP_MODE_CLIENT || !cfg->flood)
		return err_at(p, line, "change_dip", "only for a flooding client (expected mode "
			      "client and \"flood\")");
	if (cfg->change_dip.family != cfg->ports[0].local.family)
		return err_at(p, line, "change_dip", "IPv%d address on IPv%d ports (expected "
			      "addresses of the ports' family)", cfg->change_dip.family,
			      cfg->ports[0].local.family);
	if (cfg->change_dip.family == 6
	    && memcmp(cfg->change_dip.v6, cfg->servers[0].start.v6, 12) != 0)
		return err_at(p, line, "change_dip", "outside the server range's /96 (expected the "
			      "first 12 bytes of line %u's address)", cfg->servers[0].line);
	if (cfg->change_dip_num < cfg->n_cpus)
		return err_at(p, line, "change_dip", "%u addresses for %u cores (expected at least "
			      "one per core)", cfg->change_dip_num, cfg->n_cpus);
	return 0;
}

/* One payload size per core: a server's, one for each core of the cpu line. */
static int
v_payload_sizes(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "payload_size");

	if (cfg->n_payload_sizes == 0)
		return 0;
	if (cfg->mode != DP_MODE_SERVER)
		return err_at(p, line, "payload_size", "%u sizes on a client (expected one size; "
			      "one per core is for a server)", cfg->n_payload_sizes);
	if (cfg->n_payload_sizes != cfg->n_cpus)
		return err_at(p, line, "payload_size", "%u sizes for %u cores (expected one size, "
			      "or one per core of the cpu line)", cfg->n_payload_sizes, cfg->n_cpus);
	for (uint32_t i = 0; i < cfg->n_payload_sizes; i++)
		if (cfg->protocol == DP_PROTO_HTTP && cfg->payload_sizes[i] < DP_HTTP_MIN_SIZE)
			return err_at(p, line, "payload_size", "%u too small for protocol http "
				      "(expected >= %d)", cfg->payload_sizes[i], DP_HTTP_MIN_SIZE);
	return 0;
}

/* payload_file: the file must be readable now, regular, 1 byte at least;
 * its size makes payload_size (the HTTP head's 85 bytes added over TCP).
 * A GET has no body to carry it. A TCP server may also give payload_size
 * (one or one per core, each at least the file's payload): the file is
 * then the first bytes of a longer body, the filler the rest (issue #22;
 * our extension). */
static int
v_payload_file(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "payload_file");
	const char *path = cfg->payload_file;
	int prefix = cfg->mode == DP_MODE_SERVER && cfg->protocol != DP_PROTO_UDP;
	const char *other[] = { "packet_size", "payload_random", "payload_size" };
	size_t n_other = sizeof(other) / sizeof(other[0]) - (prefix ? 1 : 0);
	uint64_t head = cfg->protocol == DP_PROTO_UDP ? 0 : DP_HTTP_MIN_SIZE;
	uint64_t max = cfg->protocol == DP_PROTO_UDP ? cfg->mss : DP_PAYLOAD_STORED - DP_HTTP_MIN_SIZE;
	struct stat st;
	int fd;

	if (line == 0)
		return 0;
	for (size_t i = 0; i < n_other; i++)
		if (line_of(p, other[i]) != 0)
			return err_at(p, line, "payload_file", "given with %s on line %u (expected one "
				      "of them: the file's bytes are the payload%s)", other[i],
				      line_of(p, other[i]),
				      i == 2 ? "; payload_size with it is for a TCP server, where "
					       "the file begins a longer body" : "");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_at(p, line, "payload_file", "%s: cannot open: %s (expected a readable "
			      "file)", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_at(p, line, "payload_file", "%s: not a regular file (expected a file "
			      "whose bytes are the payload)", path);
	}
	close(fd);
	if (st.st_size == 0)
		return err_at(p, line, "payload_file", "%s: empty (expected at least 1 byte)", path);
	if ((uint64_t)st.st_size > max)
		return err_at(p, line, "payload_file", "%s: %llu bytes, too large (expected at most "
			      "%llu%s)", path, (unsigned long long)st.st_size, (unsigned long long)max,
			      cfg->protocol == DP_PROTO_UDP ? ", mss: a UDP message is one datagram" :
			      ", the body of one HTTP message");
	if (cfg->mode == DP_MODE_CLIENT && cfg->protocol != DP_PROTO_UDP
	    && cfg->http_method != DP_HTTP_POST)
		return err_at(p, line, "payload_file", "on a client sending GET (expected "
			      "\"http_method POST\", whose body it becomes, protocol udp, or the "
			      "file on the server)");
	cfg->payload_file_size = (uint32_t)st.st_size;
	if (line_of(p, "payload_size") == 0) {
		cfg->payload_size = cfg->payload_file_size + (uint32_t)head;
		return 0;
	}
	for (uint32_t i = 0; i < (cfg->n_payload_sizes ? cfg->n_payload_sizes : 1); i++) {
		uint32_t size = cfg->n_payload_sizes ? cfg->payload_sizes[i] : cfg->payload_size;
		if (size < st.st_size + head)
			return err_at(p, line_of(p, "payload_size"), "payload_size", "%u is shorter "
				      "than payload_file %s on line %u (expected at least %llu: the "
				      "file's %llu bytes%s, which begin the body)", size, path, line,
				      (unsigned long long)(st.st_size + head),
				      (unsigned long long)st.st_size,
				      head ? " and the 85-byte head" : "");
	}
	return 0;
}

/* dperf's deprecated packet_size: the frame without CRC; the payload is
 * what is left after Ethernet, IP and TCP/UDP headers. */
static int
v_packet_size(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "packet_size"), hdrs;

	if (p->packet_size == 0)
		return 0;
	if (cfg->payload_size != 0)
		return err_at(p, line, "packet_size", "given with payload_size on line %u (expected "
			      "one of them)", line_of(p, "payload_size"));
	hdrs = 14 + (cfg->ports[0].local.family == 6 ? 40 : 20)
	       + (cfg->protocol == DP_PROTO_UDP ? 8 : 20);
	if (p->packet_size <= hdrs)
		return err_at(p, line, "packet_size", "%u leaves no payload (expected more than "
			      "the %u bytes of headers)", p->packet_size, hdrs);
	cfg->payload_size = p->packet_size - hdrs;
	return 0;
}

static int
v_mode(struct pctx *p)
{
	/* dperf accepts client_hop on a server and ignores it there */
	if (p->cfg->mode == DP_MODE_SERVER && line_of(p, "client_hop") != 0)
		warn_at(p, line_of(p, "client_hop"), "client_hop", "no effect in mode server (the "
			"client chooses its addresses and ports)");
	if (v_client_only(p, "cps") < 0 || v_client_only(p, "cc") < 0
	    || v_client_only(p, "flood") < 0)
		return -1;
	return v_targets(p);
}

static int
v_sizes(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	uint32_t mtu_mss = cfg->jumbo ? MSS_JUMBO : MSS_STD;
	uint32_t line = line_of(p, "payload_size");

	if (cfg->mss > mtu_mss)
		return err_at(p, line_of(p, "mss"), "mss", "%u needs jumbo frames (expected at "
			      "most %u, or \"jumbo\")", cfg->mss, MSS_STD);
	/* A UDP message is one datagram; over TCP an HTTP response may span
	 * segments (the message rules, config_rules.c, say which may). */
	if (cfg->protocol == DP_PROTO_UDP && cfg->payload_size > mtu_mss)
		return err_at(p, line, "payload_size", "%u needs jumbo frames (expected at most "
			      "%u, or \"jumbo\")", cfg->payload_size, MSS_STD);
	if (cfg->protocol == DP_PROTO_UDP && cfg->payload_size > cfg->mss)
		return err_at(p, line, "payload_size", "%u is larger than mss %u (expected at "
			      "most mss: a UDP message is one datagram)", cfg->payload_size, cfg->mss);
	if (cfg->protocol == DP_PROTO_HTTP && cfg->payload_size != 0
	    && cfg->payload_size < DP_HTTP_MIN_SIZE)
		return err_at(p, line, "payload_size", "%u too small for protocol http (expected "
			      ">= %d, or protocol tcp for raw payloads)", cfg->payload_size,
			      DP_HTTP_MIN_SIZE);
	return 0;
}

/* An ACK we hold back must reach the peer before our own retransmission
 * timer would fire in its place: a peer configured like us (another
 * dperf-live) would otherwise retransmit what we only delayed. */
static int
v_delayed_ack(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t line = line_of(p, "delayed_ack");

	/* The default yields to a short retransmit_timeout; a value the
	 * user wrote is checked. */
	if (line == 0 && cfg->delayed_ack_us > cfg->retransmit_timeout_us / 2)
		cfg->delayed_ack_us = cfg->retransmit_timeout_us / 2;
	if (cfg->delayed_ack_us > cfg->retransmit_timeout_us / 2)
		return err_at(p, line, "delayed_ack", "%llu us is more than half of "
			      "retransmit_timeout (expected at most %llu us: the held ACK "
			      "still has to cross the network before the timer fires)",
			      (unsigned long long)cfg->delayed_ack_us,
			      (unsigned long long)cfg->retransmit_timeout_us / 2);
	return 0;
}

/* The bytes VXLAN adds in front of an inner frame: outer Ethernet, IPv4
 * or IPv6, UDP and the VXLAN header. */
static uint32_t
vxlan_overhead(int family)
{
	return 14 + (family == 6 ? 40 : 20) + 8 + 8;
}

/* dperf's vxlan rules: one line per port; as many local VTEPs as the
 * port has cores, remote VTEPs one or as many; not with vlan. Ours: the
 * VTEPs are of the port's family (IPv4 or IPv6), and the inner segments
 * fit the outer MTU, so mss comes down to fit unless it was given. */
static int
v_vxlan(struct pctx *p)
{
	struct dp_config *cfg = p->cfg;
	uint32_t per_port = cfg->n_cpus / cfg->n_ports, mtu, fit;
	int inner6 = cfg->servers[0].start.family == 6;

	if (cfg->n_vxlans == 0)
		return 0;
	if (cfg->n_vxlans != cfg->n_ports)
		return err_at(p, cfg->vxlans[cfg->n_vxlans - 1].line, "vxlan", "%u \"vxlan\" lines "
			      "for %u \"port\" lines (expected one per port, in port order)",
			      cfg->n_vxlans, cfg->n_ports);
	if (cfg->vlan != 0)
		return err_at(p, line_of(p, "vlan"), "vlan", "given with vxlan (expected one of "
			      "them: dperf cannot tag and encapsulate at the same time)");
	for (uint32_t i = 0; i < cfg->n_vxlans; i++) {
		const struct dp_vxlan *vx = &cfg->vxlans[i];
		int fam = cfg->ports[i].local.family;

		if (vx->vtep_local.start.family != fam)
			return err_at(p, vx->line, "vxlan", "IPv%d VTEP addresses on the IPv%d port of "
				      "line %u (expected the port's family: the VTEPs are the outer "
				      "addresses)", vx->vtep_local.start.family, fam, cfg->ports[i].line);
		if (vx->vtep_local.num != per_port)
			return err_at(p, vx->line, "vxlan", "%u local VTEP addresses for %u worker "
				      "cores on this port (expected one per core)", vx->vtep_local.num,
				      per_port);
		if (vx->vtep_remote.num != 1 && vx->vtep_remote.num != per_port)
			return err_at(p, vx->line, "vxlan", "%u remote VTEP addresses for %u worker "
				      "cores on this port (expected 1, or one per core)",
				      vx->vtep_remote.num, per_port);
	}
	/* The outer packet must fit the port's MTU: the inner IP packet loses
	 * what the encapsulation adds (Linux's vxlan device: MTU 1450). */
	mtu = cfg->jumbo ? cfg->jumbo_mtu : 1500;
	fit = mtu + 14 - vxlan_overhead(cfg->ports[0].local.family) - 14 - (inner6 ? 40 : 20) - 20;
	if (cfg->mss > fit && line_of(p, "mss") != 0)
		return err_at(p, line_of(p, "mss"), "mss", "%u does not fit a %u-byte MTU inside "
			      "VXLAN (expected at most %u%s)", cfg->mss, mtu, fit,
			      cfg->jumbo ? "" : ", or jumbo");
	if (cfg->mss > fit)
		cfg->mss = fit;
	return 0;
}

/* TLS (protocol https and tls): each keyword for its side, the server's
 * certificate and key, a verifying client's CA, and the files readable
 * (OpenSSL reads them when the test starts, and names what is wrong). */
static int
v_tls(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;
	static const char *const kws[] = { "tls_cert", "tls_key", "tls_version", "tls_ciphers",
					   "tls_groups", "tls_resume", "tls_sni", "tls_alpn",
					   "tls_verify", "tls_ca" };
	static const char *const server_only[] = { "tls_cert", "tls_key" };
	static const char *const client_only[] = { "tls_sni", "tls_verify", "tls_ca" };
	int server = cfg->mode == DP_MODE_SERVER;
	const char *proto = cfg->protocol == DP_PROTO_TLS ? "tls" : "https";

	for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++)
		if (line_of(p, kws[i]) != 0 && !DP_PROTO_IS_TLS(cfg->protocol))
			return err_at(p, line_of(p, kws[i]), kws[i], "without TLS (expected "
				      "\"protocol https\" or \"protocol tls\")");
	if (!DP_PROTO_IS_TLS(cfg->protocol))
		return 0;
	for (size_t i = 0; i < 2; i++)
		if (!server && line_of(p, server_only[i]) != 0)
			return err_at(p, line_of(p, server_only[i]), server_only[i], "a server's "
				      "(expected no client certificate: dperf-live's client sends none)");
	for (size_t i = 0; i < 3; i++)
		if (server && line_of(p, client_only[i]) != 0)
			return err_at(p, line_of(p, client_only[i]), client_only[i], "a client's "
				      "(expected only on \"mode client\")");
	if (server && (cfg->tls_cert[0] == '\0' || cfg->tls_key[0] == '\0'))
		return err_at(p, 0, cfg->tls_cert[0] ? "tls_key" : "tls_cert", "missing (expected "
			      "the server's certificate and key with protocol %s; scripts/tls-cert.sh "
			      "makes a test pair)", proto);
	if (cfg->tls_verify && cfg->tls_ca[0] == '\0')
		return err_at(p, line_of(p, "tls_verify"), "tls_verify", "1 without tls_ca (expected "
			      "the certificates to trust)");
	if (cfg->tls_ca[0] != '\0' && !cfg->tls_verify)
		return err_at(p, line_of(p, "tls_ca"), "tls_ca", "without \"tls_verify 1\" (expected "
			      "both, or neither)");
	if (cfg->flood)
		return err_at(p, line_of(p, "flood"), "flood", "with protocol %s (expected "
			      "connections: a flood sends SYNs only)", proto);
	{
		const char *files[] = { "tls_cert", "tls_key", "tls_ca" };
		const char *paths[] = { cfg->tls_cert, cfg->tls_key, cfg->tls_ca };

		for (size_t i = 0; i < 3; i++)
			if (paths[i][0] != '\0' && access(paths[i], R_OK) != 0)
				return err_at(p, line_of(p, files[i]), files[i], "%s: cannot read: %s "
					      "(expected a readable PEM file)", paths[i], strerror(errno));
	}
	return 0;
}

int
config_check(struct pctx *p)
{
	const struct dp_config *cfg = p->cfg;

	if (v_required(p) < 0 || v_family(p) < 0)
		return -1;
	if (v_range_count(p, "server", cfg->n_servers, cfg->servers) < 0
	    || v_range_count(p, "client", cfg->n_clients, cfg->clients) < 0)
		return -1;
	if (v_client_ranges(p) < 0 || v_server_pools(p) < 0 || v_packet_size(p) < 0 || v_payload_sizes(p) < 0
	    || v_payload_file(p) < 0)
		return -1;
	if (v_cores(p) < 0 || v_mode(p) < 0 || v_vxlan(p) < 0 || v_sizes(p) < 0
	    || v_delayed_ack(p) < 0
	    || v_change_dip(p) < 0 || v_tls(p) < 0 || mix_check(p) < 0)
		return -1;
	return 0;
}

