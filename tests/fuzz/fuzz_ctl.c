/* SPDX-License-Identifier: BSD-3-Clause
 * libFuzzer harness: the IPC request decoder and the control rules, on
 * arbitrary bytes, against a client and a server memzone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_msg.h"
#include "shm.h"
#include "control/control.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct dp_shm *
make_shm(enum dp_mode mode, struct dp_config *cfg)
{
	struct dp_shm *s = aligned_alloc(64, sizeof(*s));

	memset(s, 0, sizeof(*s));
	dp_config_defaults(cfg);
	cfg->mode = mode;
	cfg->n_cpus = 1;
	cfg->cps = 1000;
	cfg->n_clients = 1;
	cfg->clients[0].num = 4;
	s->hdr.mode = mode;
	s->hdr.tsc_hz = 2000000000ULL;
	s->hdr.start_tsc = 1000;
	s->ctl.duration_us = 100000000;
	s->ctl.target_cps = 1000;
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dp_shm *cli, *srv;
	static struct control lc, ls;
	static struct dp_config ccfg, scfg; /* the primary's, beside the memzone */
	struct dp_ctl_req req;
	struct dp_ctl_rep rep;
	const char *why;

	if (cli == NULL) {
		cli = make_shm(DP_MODE_CLIENT, &ccfg);
		srv = make_shm(DP_MODE_SERVER, &scfg);
		/* a traffic mix on the client: set weight's rules too */
		ccfg.n_kinds = 3;
		for (uint32_t k = 0; k < 3; k++) {
			ccfg.kinds[k].name[0] = (char)('a' + k);
			ccfg.kinds[k].weight = k + 1;
		}
		cli->kinds.n = 3;
		control_init(&lc, cli, &ccfg);
		control_init(&ls, srv, &scfg);
	}
	if (dp_ctl_decode(data, size, &req, &why) != 0)
		return 0;
	control_apply(&lc, &req, &rep, 5000000000ULL);
	if (memchr(rep.msg, '\0', sizeof(rep.msg)) == NULL)
		abort();
	control_apply(&ls, &req, &rep, 5000000000ULL);
	if (cli->ctl.target_cps == 0 || cli->ctl.target_cps > lc.lim.max_cps)
		abort(); /* a refused value never lands */
	{
		uint64_t sum = 0;

		for (uint32_t k = 0; k < 3; k++) {
			if (cli->kinds.weight[k] > DP_KIND_WEIGHT_MAX)
				abort();
			sum += cli->kinds.weight[k];
		}
		if (sum == 0)
			abort(); /* never every weight 0 */
	}
	if (cli->ctl.stop) { /* start over: a stopped test refuses everything */
		memset(&cli->ctl, 0, sizeof(cli->ctl));
		cli->ctl.target_cps = 1000;
		cli->ctl.duration_us = 100000000;
	}
	return 0;
}
