/* SPDX-License-Identifier: BSD-3-Clause
 * flow_isolate (see flow.h): rte_flow isolated mode and the rules that
 * bring our traffic to its worker's queue.
 */
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_flow.h>

#include "dev/flow.h"
#include "dev/flow_plan.h"

static int
flow_err(const struct dp_config *cfg, uint32_t i, const struct flow_rule *r, const char *how,
	 const struct rte_flow_error *fe, int rc, char *err, size_t errlen)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	dp_port_name(cfg, i, name, sizeof(name));
	snprintf(err, errlen, "%s:%u: flow_isolate: port %s (line %u) %s the rule for %s: %s",
		 cfg->file, dp_config_line(cfg, "flow_isolate"), name, cfg->ports[i].line, how,
		 r->what, fe->message ? fe->message : rte_strerror(-rc));
	return -1;
}

static void
mask_prefix(uint8_t *mask, uint32_t len, uint32_t plen)
{
	memset(mask, 0, len);
	for (uint32_t b = 0; b < plen; b++)
		mask[b / 8] |= (uint8_t)(0x80 >> (b % 8));
}

static int
add_rule(const struct dp_config *cfg, uint32_t i, uint16_t pid, uint32_t nq, const struct flow_rule *r,
	 char *err, size_t errlen)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item items[4];
	struct rte_flow_action actions[2];
	struct rte_flow_item_eth eth = { 0 }, eth_m = { 0 };
	struct rte_flow_item_vlan vlan = { 0 }, vlan_m = { 0 };
	struct rte_flow_item_ipv4 ip4 = { 0 }, ip4_m = { 0 };
	struct rte_flow_item_ipv6 ip6 = { 0 }, ip6_m = { 0 };
	struct rte_flow_action_queue queue = { .index = r->queue };
	uint16_t queues[DP_MAX_CPUS];
	struct rte_flow_action_rss rss = {
		.func = RTE_ETH_HASH_FUNCTION_DEFAULT,
		.types = RTE_ETH_RSS_IP,
		.queue_num = nq,
		.queue = queues,
	};
	struct rte_flow_error fe = { 0 };
	uint16_t type = rte_cpu_to_be_16(r->arp ? RTE_ETHER_TYPE_ARP :
					 r->v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);
	int n = 0, rc;

	memset(items, 0, sizeof(items));
	memset(actions, 0, sizeof(actions));
	items[n].type = RTE_FLOW_ITEM_TYPE_ETH;
	items[n].spec = &eth;
	items[n++].mask = &eth_m;
	if (cfg->vlan) { /* the tag, then the type inside it */
		vlan.tci = rte_cpu_to_be_16((uint16_t)cfg->vlan);
		vlan_m.tci = rte_cpu_to_be_16(0x0fff);
		vlan.inner_type = type;
		vlan_m.inner_type = 0xffff;
		items[n].type = RTE_FLOW_ITEM_TYPE_VLAN;
		items[n].spec = &vlan;
		items[n++].mask = &vlan_m;
	} else {
		eth.type = type;
		eth_m.type = 0xffff;
	}
	if (!r->arp && !r->v6) {
		uint8_t *a = r->match_src ? (uint8_t *)&ip4.hdr.src_addr : (uint8_t *)&ip4.hdr.dst_addr;
		uint8_t *m = r->match_src ? (uint8_t *)&ip4_m.hdr.src_addr : (uint8_t *)&ip4_m.hdr.dst_addr;

		memcpy(a, r->addr, 4);
		mask_prefix(m, 4, r->plen);
		items[n].type = RTE_FLOW_ITEM_TYPE_IPV4;
		items[n].spec = &ip4;
		items[n++].mask = &ip4_m;
	} else if (!r->arp) {
		memcpy(r->match_src ? ip6.hdr.src_addr : ip6.hdr.dst_addr, r->addr, 16);
		mask_prefix(r->match_src ? ip6_m.hdr.src_addr : ip6_m.hdr.dst_addr, 16, r->plen);
		items[n].type = RTE_FLOW_ITEM_TYPE_IPV6;
		items[n].spec = &ip6;
		items[n++].mask = &ip6_m;
	}
	items[n].type = RTE_FLOW_ITEM_TYPE_END;
	for (uint32_t q = 0; q < nq; q++)
		queues[q] = (uint16_t)q;
	actions[0].type = r->rss ? RTE_FLOW_ACTION_TYPE_RSS : RTE_FLOW_ACTION_TYPE_QUEUE;
	actions[0].conf = r->rss ? (const void *)&rss : (const void *)&queue;
	actions[1].type = RTE_FLOW_ACTION_TYPE_END;
	rc = rte_flow_validate(pid, &attr, items, actions, &fe);
	if (rc != 0)
		return flow_err(cfg, i, r, "cannot take", &fe, rc, err, errlen);
	if (rte_flow_create(pid, &attr, items, actions, &fe) == NULL)
		return flow_err(cfg, i, r, "refused", &fe, -rte_errno, err, errlen);
	return 0;
}

int
flow_rules(const struct dp_config *cfg, uint32_t i, uint16_t pid, uint32_t nq, char *err,
	   size_t errlen)
{
	struct flow_rule rules[DP_FLOW_RULES_MAX];
	uint32_t n = flow_plan(cfg, i, nq, rules, DP_FLOW_RULES_MAX);

	for (uint32_t k = 0; k < n; k++)
		if (add_rule(cfg, i, pid, nq, &rules[k], err, errlen) != 0)
			return -1;
	return 0;
}

int
flow_isolate_ports(const struct dp_config *cfg, char *err, size_t errlen)
{
	for (uint32_t i = 0; i < cfg->n_ports; i++) {
		char name[RTE_ETH_NAME_MAX_LEN];
		struct rte_eth_dev_info info;
		struct rte_flow_error fe = { 0 };
		uint16_t pid;
		int rc;

		dp_port_name(cfg, i, name, sizeof(name));
		if (rte_eth_dev_get_port_by_name(name, &pid) != 0)
			return 0; /* port_setup says which device is missing */
		rc = rte_flow_isolate(pid, 1, &fe);
		if (rc == 0)
			continue;
		if (rte_eth_dev_info_get(pid, &info) != 0)
			info.driver_name = "?";
		snprintf(err, errlen, "%s:%u: flow_isolate: port %s (line %u, driver %s) cannot isolate "
			 "its flows: %s (expected a device whose driver has rte_flow isolated mode, such "
			 "as mlx5 or net_tap, or no \"flow_isolate\" line)", cfg->file,
			 dp_config_line(cfg, "flow_isolate"), name, cfg->ports[i].line,
			 info.driver_name, fe.message ? fe.message : rte_strerror(-rc));
		return -1;
	}
	return 0;
}
