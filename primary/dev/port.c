/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "dev/flow.h"
#include "dev/memif_warm.h"
#include "dev/port.h"
#include "tcp/tcp_ooo.h"

#define NB_DESC 1024
#define MBUF_CACHE 256

/* A memif device in the client role (memif's default role is server). */
static int
is_memif_client(const char *dev)
{
	return strncmp(dev, "net_memif", 9) == 0 && strstr(dev, "role=client") != NULL;
}

/* A bond's members: their port ids, for their counters (each member is a
 * device EAL created from the bond's own line, see eal_args.c). */
static int
bond_members(struct port_set *ps, const struct dp_config *cfg, uint32_t i, char *err,
	     size_t errlen)
{
	const struct dp_port_cfg *pc = &cfg->ports[i];
	char name[RTE_ETH_NAME_MAX_LEN];

	for (uint32_t m = 0; pc->is_bond && m < pc->n_members; m++) {
		const char *dev = pc->dev + pc->member_off[m];

		dp_dev_name(dev, pc->member_len[m], name, sizeof(name));
		if (rte_eth_dev_get_port_by_name(name, &ps->member_id[i][m]) != 0) {
			snprintf(err, errlen, strncmp(dev, "net_", 4) == 0 ?
				 "%s:%u: port: the %s driver refused bond member '%.*s' (its reason is in the log above)" :
				 "%s:%u: port: no DPDK device '%s' for bond member '%.*s' (is it bound to a DPDK driver?)",
				 cfg->file, pc->line, name, (int)pc->member_len[m], dev);
			return -1;
		}
		ps->n_members[i] = m + 1;
	}
	return 0;
}

static int
port_setup(struct port_set *ps, const struct dp_config *cfg, uint32_t i, uint32_t nq,
	   char *err, size_t errlen)
{
	const struct dp_port_cfg *pc = &cfg->ports[i];
	struct netport *np = &ps->np[i];
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint64_t tx_ck = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			 RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	uint64_t rx_ck = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
			 RTE_ETH_RX_OFFLOAD_UDP_CKSUM;
	uint16_t pid, nrx = NB_DESC, ntx = NB_DESC;
	char name[RTE_ETH_NAME_MAX_LEN], pool[64];
	unsigned int nb_mbufs;
	int rc, socket;

	dp_port_name(cfg, i, name, sizeof(name));
	if (bond_members(ps, cfg, i, err, errlen) != 0)
		return -1;
	if (rte_eth_dev_get_port_by_name(name, &pid) != 0) {
		if (pc->is_vdev || pc->is_bond)
			snprintf(err, errlen,
				 "%s:%u: port: the %s driver refused '%s' (its reason is in the log above)",
				 cfg->file, pc->line, name, pc->dev);
		else
			snprintf(err, errlen,
				 "%s:%u: port: no DPDK device '%s' (is it bound to a DPDK driver?)",
				 cfg->file, pc->line, name);
		return -1;
	}
	rte_eth_dev_info_get(pid, &info);
	if (info.max_rx_queues < nq || info.max_tx_queues < nq) {
		snprintf(err, errlen, "%s:%u: port: %s has %u queues, %u worker cores need one each",
			 cfg->file, pc->line, name, RTE_MIN(info.max_rx_queues, info.max_tx_queues), nq);
		return -1;
	}
	memset(&conf, 0, sizeof(conf));
	/* VXLAN: the engine sums inner and outer headers itself (a device's
	 * offload would need the tunnel's lengths and flags). */
	if ((info.tx_offload_capa & tx_ck) == tx_ck && cfg->n_vxlans == 0) {
		conf.txmode.offloads |= tx_ck;
		np->tx_cksum = 1;
	}
	if ((info.rx_offload_capa & rx_ck) == rx_ck && cfg->n_vxlans == 0) {
		conf.rxmode.offloads |= rx_ck;
		np->rx_cksum = 1;
	}
	if (cfg->rss && nq > 1) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP & info.flow_type_rss_offloads;
	}
	if (cfg->jumbo)
		conf.rxmode.mtu = RTE_MIN(cfg->jumbo_mtu, info.max_mtu);
	rc = rte_eth_dev_configure(pid, (uint16_t)nq, (uint16_t)nq, &conf);
	if (rc != 0) {
		snprintf(err, errlen, "%s:%u: port: cannot configure %s: %s", cfg->file, pc->line,
			 name, rte_strerror(-rc));
		return -1;
	}
	rte_eth_dev_adjust_nb_rx_tx_desc(pid, &nrx, &ntx);
	socket = rte_eth_dev_socket_id(pid);
	if (socket < 0)
		socket = (int)rte_socket_id();
	/* A bond's members each fill RX and TX rings of that size. */
	/* ... and each queue's worker holds up to DP_OOO_SEGS out of order */
	nb_mbufs = nq * ((nrx + ntx) * RTE_MAX(1u, (unsigned int)pc->n_members) + 4096 + DP_OOO_SEGS) + 4096;
	snprintf(pool, sizeof(pool), "dp_mbuf_%u", i);
	ps->mp[i] = rte_pktmbuf_pool_create(pool, nb_mbufs, MBUF_CACHE, 0,
					    cfg->jumbo ? RTE_MAX(9216u, cfg->jumbo_mtu + 32) + RTE_PKTMBUF_HEADROOM : RTE_MBUF_DEFAULT_BUF_SIZE,
					    socket);
	if (ps->mp[i] == NULL) {
		snprintf(err, errlen, "cannot create a pool of %u mbufs for %s: %s (too few hugepages?)",
			 nb_mbufs, name, rte_strerror(rte_errno));
		return -1;
	}
	for (uint16_t q = 0; q < nq; q++) {
		rc = rte_eth_rx_queue_setup(pid, q, nrx, (unsigned)socket, NULL, ps->mp[i]);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(pid, q, ntx, (unsigned)socket, NULL);
		if (rc != 0) {
			snprintf(err, errlen, "cannot set up queue %u of %s: %s", q, name,
				 rte_strerror(-rc));
			return -1;
		}
	}
	/* the rules before the start: no packet of ours meets an empty table */
	if (cfg->flow_isolate && flow_rules(cfg, i, pid, nq, err, errlen) != 0)
		return -1;
	rc = rte_eth_dev_start(pid);
	if (rc != 0) {
		/* DPDK's memif client fails its start when no server listens. */
		snprintf(err, errlen, "%s:%u: port: cannot start %s: %s%s", cfg->file, pc->line, name,
			 rte_strerror(-rc),
			 is_memif_client(pc->dev) ? " (is its memif server, role=server on the same socket, running?)" :
			 pc->is_bond && strstr(pc->dev, "net_memif") != NULL ?
			 " (DPDK's memif refuses the MAC address a bond gives its members: use "
			 "net_af_packet members over veth pairs, or PCI devices)" : "");
		return -1;
	}
	ps->started |= 1u << i;
	if (is_memif_client(pc->dev))
		ps->memif_client |= 1u << i;
	rte_eth_promiscuous_enable(pid);
	np->port_id = pid;
	np->n_workers = (uint16_t)nq;
	np->lacp = pc->is_bond && pc->bond_mode == 4;
	np->neigh_ignore = cfg->neigh_ignore;
	rte_eth_macaddr_get(pid, &np->mac);
	np->v6 = pc->local.family == 6;
	/* the ranges' family: the port's, or inside VXLAN either */
	if (cfg->servers[i].start.family == 6) {
		memcpy(np->srv_pfx, cfg->servers[i].start.v6, 12);
		if (i < cfg->n_clients)
			memcpy(np->cli_pfx, cfg->clients[i].start.v6, 12);
		else if (cfg->n_clients)
			memcpy(np->cli_pfx, cfg->clients[0].start.v6, 12);
	}
	if (np->v6) {
		memcpy(np->local_ip6, pc->local.v6, 16);
		memcpy(np->gw_ip6, pc->gw.v6, 16);
	} else {
		np->local_ip = pc->local.v4;
		np->gw_ip = pc->gw.v4;
	}
	if (pc->has_gw_mac) {
		memcpy(np->gw_mac.addr_bytes, pc->gw_mac, 6);
		np->gw_ok = 1;
		ps->static_gw |= 1u << i;
	}
	np->vlan_tci_be = cfg->vlan ? rte_cpu_to_be_16((uint16_t)cfg->vlan) : 0;
	np->srv_ip_h = dp_ip_low32(&cfg->servers[i].start);
	np->n_srv = cfg->servers[i].num;
	for (uint32_t j = 1; cfg->mode == DP_MODE_SERVER && cfg->n_ports == 1 && j < cfg->n_servers; j++)
		np->pool_h[np->n_pools++] = dp_ip_low32(&cfg->servers[j].start);
	if (i < cfg->n_clients) {
		np->cli_ip_h = dp_ip_low32(&cfg->clients[i].start);
		np->n_cli = cfg->clients[i].num;
	}
	return 0;
}

int
ports_init(struct port_set *ps, const struct dp_config *cfg, uint32_t workers_per_port,
	   char *err, size_t errlen)
{
	memset(ps, 0, sizeof(*ps));
	ps->client = cfg->mode == DP_MODE_CLIENT;
	/* before any port is configured: a device that cannot isolate stops
	 * the start with nothing set up */
	if (cfg->flow_isolate && flow_isolate_ports(cfg, err, errlen) != 0)
		return -1;
	for (uint32_t i = 0; i < cfg->n_ports; i++) {
		if (port_setup(ps, cfg, i, workers_per_port, err, errlen) != 0)
			return -1;
		ps->n = i + 1;
	}
	return 0;
}

void
ports_read_stats(const struct port_set *ps, struct dp_shm *shm)
{
	for (uint32_t i = 0; i < ps->n; i++) {
		struct rte_eth_stats st;
		struct rte_eth_link link;
		struct dp_port_stats *d = &shm->ports[i];

		if (rte_eth_stats_get(ps->np[i].port_id, &st) != 0)
			continue;
		d->c[DP_PC_IPACKETS] = st.ipackets;
		d->c[DP_PC_OPACKETS] = st.opackets;
		d->c[DP_PC_IBYTES] = st.ibytes;
		d->c[DP_PC_OBYTES] = st.obytes;
		d->c[DP_PC_IERRORS] = st.ierrors;
		d->c[DP_PC_OERRORS] = st.oerrors;
		d->c[DP_PC_IMISSED] = st.imissed;
		d->c[DP_PC_RX_NOMBUF] = st.rx_nombuf;
		if (rte_eth_link_get_nowait(ps->np[i].port_id, &link) == 0)
			d->link_up = link.link_status;
		d->gw_resolved = (uint8_t)ps->np[i].gw_ok;
		for (uint32_t m = 0; m < ps->n_members[i]; m++)
			if (rte_eth_stats_get(ps->member_id[i][m], &st) == 0) {
				d->members[m].ipackets = st.ipackets;
				d->members[m].opackets = st.opackets;
				d->members[m].ibytes = st.ibytes;
				d->members[m].obytes = st.obytes;
			}
		d->mbuf_total = ps->mp[i]->size;
		d->mbuf_free = rte_mempool_avail_count(ps->mp[i]);
	}
}

void
ports_mark_pools(const struct port_set *ps, struct dp_shm *shm)
{
	ports_read_stats(ps, shm);
	for (uint32_t i = 0; i < ps->n; i++)
		shm->ports[i].mbuf_free_start = shm->ports[i].mbuf_free;
}

/* Stop and start port i with its workers parked (netport.quiesce): each
 * acknowledges between two bursts, within microseconds; a worker that
 * does not within 100 ms (descheduled) leaves the port as it is. */
static void
port_restart(struct port_set *ps, uint32_t i)
{
	struct netport *np = &ps->np[i];
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 10;

	np->quiesce_acks = 0;
	__atomic_store_n(&np->quiesce, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&np->quiesce_acks, __ATOMIC_ACQUIRE) < np->n_workers) {
		if (rte_get_timer_cycles() > end)
			goto out;
		rte_pause();
	}
	(void)rte_eth_dev_stop(np->port_id);
	if (rte_eth_dev_start(np->port_id) != 0)
		ps->started &= ~(1u << i);
	else
		ps->started |= 1u << i;
out:
	__atomic_store_n(&np->quiesce, 0, __ATOMIC_SEQ_CST);
}

/* How often a lost memif client port tries its server again. */
#define MEMIF_RETRY_US 1000000

uint32_t
ports_watch_links(struct port_set *ps, uint64_t now_us)
{
	uint32_t up = 0, changed;

	for (uint32_t i = 0; i < ps->n; i++) {
		struct rte_eth_link link;

		if (rte_eth_link_get_nowait(ps->np[i].port_id, &link) == 0 && link.link_status)
			up |= 1u << i;
	}
	if (up & ~ps->link_up)
		memif_warm_regions();
	changed = up ^ ps->link_up;
	for (uint32_t i = 0; i < ps->n; i++) {
		uint32_t bit = 1u << i;
		struct netport *np = &ps->np[i];

		if ((changed & up & bit) && (ps->ever_up & bit) && ps->client && !(ps->static_gw & bit))
			np->gw_ok = 0; /* before the workers see the link: no launch to an old MAC */
		np->link_up = !!(up & bit);
		if ((changed & bit) && !(up & bit))
			ps->retry_us[i] = now_us + MEMIF_RETRY_US;
		/* DPDK's memif client connects only when started: restart it
		 * (its queues and rings stay; the workers' bursts see a
		 * disconnected device meanwhile and return nothing). */
		if (!(up & bit) && (ps->ever_up & bit) && (ps->memif_client & bit) &&
		    now_us >= ps->retry_us[i]) {
			ps->retry_us[i] = now_us + MEMIF_RETRY_US;
			port_restart(ps, i);
		}
	}
	ps->ever_up |= up;
	ps->link_up = up;
	return changed;
}

void
ports_close(struct port_set *ps)
{
	for (uint32_t i = 0; i < ps->n; i++) {
		if (ps->started & (1u << i))
			rte_eth_dev_stop(ps->np[i].port_id);
		rte_eth_dev_close(ps->np[i].port_id);
		/* Closing a bond stops and releases its members; close them
		 * too, as a port of their own would be. */
		for (uint32_t m = 0; m < ps->n_members[i]; m++)
			rte_eth_dev_close(ps->member_id[i][m]);
	}
	ps->started = 0;
}
