/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_memzone.h>

#include "boot/shm_init.h"

struct dp_shm *
shm_create(const struct dp_config *cfg, const char *name, char *err, size_t errlen)
{
	const struct rte_memzone *mz;
	struct dp_shm *s;
	struct timeval tv;

	mz = rte_memzone_reserve_aligned(DP_SHM_NAME, sizeof(struct dp_shm), SOCKET_ID_ANY, 0, 64);
	if (mz == NULL) {
		snprintf(err, errlen, "cannot reserve memzone %s (%zu bytes): %s", DP_SHM_NAME,
			 sizeof(struct dp_shm), rte_strerror(rte_errno));
		return NULL;
	}
	s = mz->addr;
	memset(s, 0, sizeof(*s));
	gettimeofday(&tv, NULL);
	s->hdr.abi = DP_SHM_ABI;
	s->hdr.size = sizeof(*s);
	s->hdr.pid = getpid();
	s->hdr.state = DP_ST_INIT;
	s->hdr.tsc_hz = rte_get_tsc_hz();
	s->hdr.start_unix_us = (uint64_t)tv.tv_sec * 1000000 + (uint64_t)tv.tv_usec;
	s->hdr.mode = cfg->mode;
	s->hdr.n_workers = cfg->n_cpus;
	s->hdr.n_ports = cfg->n_ports;
	s->hdr.features = DP_PROTO_IS_TLS(cfg->protocol) ? DP_FEAT_TLS : 0;
	snprintf(s->hdr.name, sizeof(s->hdr.name), "%s", name);
	dp_config_dump(cfg, s->config_text, sizeof(s->config_text));
	if (cfg->mode == DP_MODE_CLIENT && cfg->n_kinds > 1) { /* per-kind counters */
		s->kinds.n = cfg->n_kinds;
		for (uint32_t k = 0; k < cfg->n_kinds; k++)
			snprintf(s->kinds.name[k], sizeof(s->kinds.name[k]), "%s", cfg->kinds[k].name);
	}
	if (cfg->mode == DP_MODE_SERVER && cfg->n_objects > 0) { /* per-object counters */
		s->objects.n = cfg->n_objects;
		for (uint32_t o = 0; o < cfg->n_objects; o++)
			snprintf(s->objects.path[o], sizeof(s->objects.path[o]), "%s", cfg->objects[o].path);
	}
	s->ctl.target_cps = cfg->cps;
	s->ctl.target_cc = cfg->cc;
	s->ctl.duration_us = cfg->duration_us;
	s->ctl.lead_s = dp_config_lead_s(cfg);
	for (uint32_t i = 0; i < cfg->n_ports; i++) {
		const struct dp_port_cfg *pc = &cfg->ports[i];

		if (pc->is_bond)
			dp_port_name(cfg, i, s->ports[i].name, sizeof(s->ports[i].name));
		else
			snprintf(s->ports[i].name, sizeof(s->ports[i].name), "%.*s",
				 (int)strcspn(pc->dev, ","), pc->dev);
		s->ports[i].n_members = pc->is_bond ? pc->n_members : 0;
		for (uint32_t m = 0; m < s->ports[i].n_members; m++)
			dp_dev_name(pc->dev + pc->member_off[m], pc->member_len[m],
				    s->ports[i].members[m].name, sizeof(s->ports[i].members[m].name));
	}
	/* Published last: a secondary that sees the magic sees the rest. */
	__atomic_store_n(&s->hdr.magic, DP_SHM_MAGIC, __ATOMIC_RELEASE);
	return s;
}
