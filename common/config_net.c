/* SPDX-License-Identifier: BSD-3-Clause
 * The handlers of the keywords that name cores, devices and addresses:
 * cpu, port, client, server, vxlan, change_dip, rss, jumbo. Their rows,
 * defaults and help are in config_table.c.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_err.h"
#include "config_int.h"

#define MAX_CPU_ID 1023

static int
cpu_add(struct pctx *p, unsigned long id)
{
	struct dp_config *cfg = p->cfg;

	for (uint32_t i = 0; i < cfg->n_cpus; i++)
		if (cfg->cpus[i] == id)
			return kw_err(p, "core %lu listed twice (expected each core once)", id);
	if (cfg->n_cpus >= DP_MAX_CPUS)
		return kw_err(p, "too many cores (expected at most %d)", DP_MAX_CPUS);
	cfg->cpus[cfg->n_cpus++] = (uint16_t)id;
	return 0;
}

static int
parse_cpu_id(const char *s, char **end, unsigned long *id)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*id = strtoul(s, end, 10);
	return (errno != 0 || *id > MAX_CPU_ID) ? -1 : 0;
}

int
h_cpu(struct pctx *p, int argc, char **argv)
{
	p->cfg->cpu_line = p->line;
	for (int i = 0; i < argc; i++) {
		unsigned long lo, hi;
		char *end;

		if (parse_cpu_id(argv[i], &end, &lo) < 0)
			goto bad;
		hi = lo;
		if (*end == '-' && parse_cpu_id(end + 1, &end, &hi) < 0)
			goto bad;
		if (*end != '\0' || hi < lo)
			goto bad;
		for (unsigned long c = lo; c <= hi; c++)
			if (cpu_add(p, c) < 0)
				return -1;
		continue;
bad:
		return kw_err(p, "bad core \"%s\" (expected core numbers 0..%d like \"0 1\" or "
			      "ranges like \"2-5\")", argv[i], MAX_CPU_ID);
	}
	return 0;
}

/* The ethdev names a port's device gives EAL: its own, or its members'. */
static uint32_t
dev_names(const struct dp_port_cfg *pc, char names[][DP_DEV_LEN])
{
	if (!pc->is_bond) {
		dp_dev_name(pc->dev, strlen(pc->dev), names[0], DP_DEV_LEN);
		return 1;
	}
	for (uint32_t i = 0; i < pc->n_members; i++)
		dp_dev_name(pc->dev + pc->member_off[i], pc->member_len[i], names[i], DP_DEV_LEN);
	return pc->n_members;
}

static int
port_dev(struct pctx *p, const char *dev, struct dp_port_cfg *pc)
{
	char mine[DP_BOND_MAX_MEMBERS][DP_DEV_LEN], theirs[DP_BOND_MAX_MEMBERS][DP_DEV_LEN];
	char why[DP_ERR_LEN];
	uint32_t n_mine, n_theirs;

	if (strncmp(dev, "bond", 4) == 0) {
		if (dp_bond_parse(dev, pc, why, sizeof(why)) < 0)
			return kw_err(p, "%s", why);
	} else if (strncmp(dev, "net_bonding", 11) == 0) {
		return kw_err(p, "a net_bonding vdev cannot be given directly (expected dperf's "
			      "bondMODE:POLICY(DEV0,DEV1,...), which creates it with its members)");
	} else {
		if (strncmp(dev, "net_", 4) == 0 && strlen(dev) > 4)
			pc->is_vdev = 1;
		else if (!dp_is_pci_addr(dev, strlen(dev)))
			return kw_err(p, "bad device \"%s\" (expected a PCI address like 0000:01:00.0, "
				      "a vdev like net_memif0,role=server, or a bond like "
				      "bond0:2(DEV0,DEV1))", dev);
		if (strlen(dev) >= sizeof(pc->dev))
			return kw_err(p, "device too long (expected at most %d characters)",
				      DP_DEV_LEN - 1);
		strcpy(pc->dev, dev);
	}
	/* A device serves one port: EAL would create it once, for the first. */
	n_mine = dev_names(pc, mine);
	for (uint32_t i = 0; i < p->cfg->n_ports; i++) {
		n_theirs = dev_names(&p->cfg->ports[i], theirs);
		for (uint32_t a = 0; a < n_mine; a++)
			for (uint32_t b = 0; b < n_theirs; b++)
				if (strcmp(mine[a], theirs[b]) == 0)
					return kw_err(p, "device \"%s\" already used on line %u "
						      "(expected each device once)", mine[a],
						      p->cfg->ports[i].line);
	}
	return 0;
}

int
h_port(struct pctx *p, int argc, char **argv)
{
	struct dp_port_cfg pc;

	memset(&pc, 0, sizeof(pc));
	if (p->cfg->n_ports >= DP_MAX_PORTS)
		return kw_err(p, "too many ports (expected at most %d \"port\" lines)", DP_MAX_PORTS);
	if (port_dev(p, argv[0], &pc) < 0 || arg_ip(p, "local", argv[1], &pc.local) < 0
	    || arg_ip(p, "gateway", argv[2], &pc.gw) < 0)
		return -1;
	if (pc.local.family != pc.gw.family)
		return kw_err(p, "local %s and gateway %s are of different address families "
			      "(expected both IPv4 or both IPv6)", argv[1], argv[2]);
	if (argc == 4) {
		if (parse_mac(argv[3], pc.gw_mac) < 0)
			return kw_err(p, "bad MAC \"%s\" (expected a MAC like aa:bb:cc:dd:ee:ff)",
				      argv[3]);
		pc.has_gw_mac = 1;
	}
	pc.line = p->line;
	p->cfg->ports[p->cfg->n_ports++] = pc;
	return 0;
}

static int
parse_range(struct pctx *p, char **argv, struct dp_range *r, uint32_t n, uint32_t max)
{
	char buf[64];

	if (n >= max)
		return kw_err(p, "too many ranges (expected at most %u \"%s\" lines)", max,
			      p->kw->name);
	memset(r, 0, sizeof(*r));
	if (arg_ip(p, p->kw->name, argv[0], &r->start) < 0
	    || arg_u32(p, "count", argv[1], 1, 254, &r->num) < 0)
		return -1;
	if (last_byte(&r->start) + r->num - 1 > 255) {
		struct dp_ip end = dp_range_addr(r, r->num - 1);
		return kw_err(p, "%s + %u addresses ends at %s (expected the range to vary the "
			      "last byte only, up to .255)", argv[0], r->num,
			      dp_ip_str(&end, buf, sizeof(buf)));
	}
	r->line = p->line;
	return 0;
}

int
h_client(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;

	(void)argc;
	if (parse_range(p, argv, &cfg->clients[cfg->n_clients], cfg->n_clients,
			DP_MAX_CLIENT_RANGES) < 0)
		return -1;
	cfg->n_clients++;
	return 0;
}

int
h_server(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;

	(void)argc;
	if (parse_range(p, argv, &cfg->servers[cfg->n_servers], cfg->n_servers, DP_MAX_PORTS) < 0)
		return -1;
	cfg->n_servers++;
	return 0;
}

/* "change_dip IP STEP NUM": a flooding client sends to NUM destinations,
 * IP + k * STEP (the address's last 32 bits count). */
int
h_change_dip(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;
	uint32_t low;
	uint64_t last;

	(void)argc;
	if (arg_ip(p, "destination", argv[0], &cfg->change_dip) < 0
	    || arg_u32(p, "step", argv[1], 1, 65535, &cfg->change_dip_step) < 0
	    || arg_u32(p, "count", argv[2], 1, 65535, &cfg->change_dip_num) < 0)
		return -1;
	if (cfg->change_dip.family == 4)
		low = cfg->change_dip.v4;
	else
		memcpy(&low, cfg->change_dip.v6 + 12, 4);
	last = (uint64_t)ntohl(low) + (uint64_t)cfg->change_dip_step * (cfg->change_dip_num - 1);
	if (last > UINT32_MAX)
		return kw_err(p, "%s + %u x %u passes the end of the address space (expected a "
			      "smaller step or count)", argv[0], cfg->change_dip_step,
			      cfg->change_dip_num - 1);
	return 0;
}

/* dperf's "vxlan VNI INNER_SMAC INNER_DMAC VTEP_LOCAL NUM VTEP_REMOTE NUM",
 * one per port in port order; the counts are checked against the cores in
 * config_check.c. dperf takes IPv4 VTEPs only; here they may be IPv6 too. */
int
h_vxlan(struct pctx *p, int argc, char **argv)
{
	struct dp_config *cfg = p->cfg;
	struct dp_vxlan vx;

	(void)argc;
	memset(&vx, 0, sizeof(vx));
	if (cfg->n_vxlans >= DP_MAX_PORTS)
		return kw_err(p, "too many lines (expected at most %d, one per \"port\" line)",
			      DP_MAX_PORTS);
	if (arg_u32(p, "VNI", argv[0], 1, DP_VXLAN_VNI_MAX, &vx.vni) < 0)
		return -1;
	if (parse_mac(argv[1], vx.inner_smac) < 0 || parse_mac(argv[2], vx.inner_dmac) < 0)
		return kw_err(p, "bad inner MAC \"%s\" (expected a MAC like aa:bb:cc:dd:ee:ff)",
			      parse_mac(argv[1], vx.inner_smac) < 0 ? argv[1] : argv[2]);
	if (parse_range(p, argv + 3, &vx.vtep_local, 0, 1) < 0
	    || parse_range(p, argv + 5, &vx.vtep_remote, 0, 1) < 0)
		return -1;
	if (vx.vtep_local.start.family != vx.vtep_remote.start.family)
		return kw_err(p, "local VTEP %s and remote VTEP %s are of different address families "
			      "(expected both IPv4 or both IPv6)", argv[3], argv[5]);
	vx.line = p->line;
	cfg->vxlans[cfg->n_vxlans++] = vx;
	return 0;
}

/* dperf: "rss [l3|l3l4|auto [mq_rx_none|mq_rx_rss|l3|l3l4]]". Our RSS
 * hashes IP addresses only, which is dperf's l3 with mq_rx_rss. */
int
h_rss(struct pctx *p, int argc, char **argv)
{
	if (argc >= 1 && strcmp(argv[0], "l3") != 0)
		return kw_err(p, "\"%s\" is not supported by this version of dperf-live (expected "
			      "rss or rss l3: the hash covers IP addresses only)", argv[0]);
	if (argc == 2 && strcmp(argv[1], "mq_rx_rss") != 0)
		return kw_err(p, "\"%s\" is not supported by this version of dperf-live (expected "
			      "mq_rx_rss)", argv[1]);
	p->cfg->rss = 1;
	return 0;
}

int
h_jumbo(struct pctx *p, int argc, char **argv)
{
	p->cfg->jumbo = 1;
	p->cfg->jumbo_mtu = DP_JUMBO_MTU_MIN;
	if (argc == 1)
		return arg_u32(p, "MTU", argv[0], DP_JUMBO_MTU_MIN, DP_JUMBO_MTU_MAX,
			       &p->cfg->jumbo_mtu);
	return 0;
}
