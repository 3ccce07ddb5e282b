/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include <rte_pdump.h>
#include <rte_telemetry.h>

#include "control/telemetry.h"
#include "figures.h"

static const struct dp_shm *g_shm;
static int pdump_up;

/* Cumulative counters summed over workers, dperf's names. */
static int
cmd_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	for (int c = 0; c < DP_C__COUNT; c++)
		rte_tel_data_add_dict_u64(d, dp_counter_names[c], dp_shm_sum(g_shm, (enum dp_counter)c));
	for (int c = 0; c < DP_PC__COUNT; c++) {
		uint64_t t = 0;
		for (uint32_t p = 0; p < g_shm->hdr.n_ports && p < DP_MAX_PORTS; p++)
			t += g_shm->ports[p].c[c];
		rte_tel_data_add_dict_u64(d, dp_port_counter_names[c], t);
	}
	return 0;
}

static int
cmd_state(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct dp_shm *s = g_shm;

	(void)cmd;
	(void)params;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", s->hdr.name);
	rte_tel_data_add_dict_string(d, "mode", dp_mode_name(s->hdr.mode));
	rte_tel_data_add_dict_string(d, "state", dp_state_name(s->hdr.state));
	rte_tel_data_add_dict_u64(d, "target_cps", s->ctl.target_cps);
	rte_tel_data_add_dict_u64(d, "target_cc", s->ctl.target_cc);
	rte_tel_data_add_dict_u64(d, "duration_us", s->ctl.duration_us);
	rte_tel_data_add_dict_u64(d, "lead_us", (uint64_t)s->ctl.lead_s * 1000000);
	rte_tel_data_add_dict_u64(d, "end_us", dp_run_end_us(&s->ctl));
	rte_tel_data_add_dict_u64(d, "paused", s->ctl.paused);
	rte_tel_data_add_dict_u64(d, "generation", s->ctl.generation);
	rte_tel_data_add_dict_u64(d, "skCon", dp_open_sockets(s, NULL));
	rte_tel_data_add_dict_u64(d, "workers", s->hdr.n_workers);
	return 0;
}

void
telemetry_start(const struct dp_shm *shm)
{
	g_shm = shm;
	if (rte_telemetry_register_cmd("/dperf/stats", cmd_stats,
				       "dperf counters summed over workers (dperf's names)") != 0 ||
	    rte_telemetry_register_cmd("/dperf/state", cmd_state,
				       "dperf instance, state and targets") != 0)
		fprintf(stderr, "dperf: warning: cannot register telemetry commands\n");
	if (rte_pdump_init() == 0)
		pdump_up = 1;
	else
		fprintf(stderr, "dperf: warning: pdump unavailable (no capture with dpdk-dumpcap)\n");
}

void
telemetry_stop(void)
{
	if (pdump_up)
		rte_pdump_uninit();
	pdump_up = 0;
}
