/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "boot/eal_args.h"
#include "shm.h"
#include "tcp/tcp_ooo.h"

static int
eal_add(struct eal_args *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (a->argc >= EAL_MAX_ARGS)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(a->buf + a->used, sizeof(a->buf) - a->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(a->buf) - a->used)
		return -1;
	a->argv[a->argc++] = a->buf + a->used;
	a->argv[a->argc] = NULL;
	a->used += (size_t)n + 1;
	return 0;
}

/* The main lcore, and with it every EAL control thread (interrupts, IPC,
 * telemetry), floats over every CPU the process may run on (taskset,
 * container cpusets), workers' included: the scheduler then puts it where
 * a core is idle. (Pinning it off our worker cores put it on the *other*
 * primary's worker core on a 2-core box and tripled the memif PMD crashes
 * at disconnect; see docs/architecture.md, Known limits.) */
static int
lcores(struct eal_args *a, const struct dp_config *cfg, long ncpu)
{
	char list[512];
	uint8_t ok[EAL_MAX_CPU] = { 0 };
	long n = ncpu < 1 ? 1 : (ncpu > EAL_MAX_CPU ? EAL_MAX_CPU : ncpu), start = -1, n_ok = 0;
	size_t off;

	for (long c = 0; c < n; c++)
		n_ok += ok[c] = !a->affinity_known || (a->allowed[c / 64] >> (c % 64) & 1);
	for (long c = 0; c < n && n_ok == 0; c++)
		ok[c] = 1; /* an affinity outside 0..ncpu-1: let EAL judge */
	off = (size_t)snprintf(list, sizeof(list), "--lcores=0@(");
	for (long c = 0; c <= n && off < sizeof(list); c++) {
		int in = c < n && ok[c];

		if (in && start < 0)
			start = c;
		if (!in && start >= 0) {
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%ld-%ld",
						list[off - 1] == '(' ? "" : ",", start, c - 1);
			start = -1;
		}
	}
	if (off < sizeof(list))
		off += (size_t)snprintf(list + off, sizeof(list) - off, ")");
	for (uint32_t i = 0; i < cfg->n_cpus && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, ",%u@%u", i + 1, cfg->cpus[i]);
	if (off >= sizeof(list))
		return -1;
	return eal_add(a, "%s", list);
}

unsigned long
eal_mem_needed_mb(const struct dp_config *cfg)
{
	/* Per port: nq * (1024 + 1024 (per member) + 4096 + DP_OOO_SEGS) + 4096 mbufs of
	 * ~2.5 KB (10 KB with jumbo), plus EAL's own needs and free heap (128 MB),
	 * and the memzone (24 MB since it holds the latency per traffic kind). */
	unsigned long per_port_q = cfg->n_ports ? cfg->n_cpus / cfg->n_ports : 1;
	unsigned long mbufs = 0, kb;

	for (uint32_t i = 0; i < cfg->n_ports; i++) /* a bond: rings on each member */
		mbufs += per_port_q * (2048 * (cfg->ports[i].n_members ? cfg->ports[i].n_members : 1u)
				       + 4096 + DP_OOO_SEGS) + 4096;
	kb = mbufs * (cfg->jumbo ? 10 : 3);

	return kb / 1024 + 128 + (unsigned long)((sizeof(struct dp_shm) + (1u << 20) - 1) >> 20);
}

/* A bond: its members as devices of their own (PCI addresses allowed with
 * -a, vdevs created with their arguments), then DPDK's net_bonding vdev
 * naming them, port i's "net_bondingI". The bonding PMD adds its members
 * when the bond is configured, after every device has been probed. */
static int
bond(struct eal_args *a, const struct dp_port_cfg *pc, uint32_t i, int *pci)
{
	static const char *const policy[] = { "l2", "l23", "l34" };
	char arg[1024], name[DP_DEV_LEN];
	size_t off;
	int rc = 0;

	_Static_assert(sizeof(policy) / sizeof(policy[0]) == DP_BOND_POLICY_MAX + 1, "policies");
	off = (size_t)snprintf(arg, sizeof(arg), "--vdev=net_bonding%u,mode=%u,xmit_policy=%s", i,
			       pc->bond_mode, policy[pc->bond_policy % (DP_BOND_POLICY_MAX + 1)]);
	for (uint32_t m = 0; m < pc->n_members; m++) {
		const char *dev = pc->dev + pc->member_off[m];
		int len = pc->member_len[m];

		if (strncmp(dev, "net_", 4) == 0) {
			rc |= eal_add(a, "--vdev=%.*s", len, dev);
		} else {
			rc |= eal_add(a, "-a");
			rc |= eal_add(a, "%.*s", len, dev);
			*pci = 1;
		}
		dp_dev_name(dev, (size_t)len, name, sizeof(name));
		if (off < sizeof(arg))
			off += (size_t)snprintf(arg + off, sizeof(arg) - off, ",slave=%s", name);
	}
	if (off >= sizeof(arg))
		return -1;
	return rc | eal_add(a, "%s", arg);
}

int
eal_args_build(struct eal_args *a, const char *prog, const struct dp_config *cfg,
	       const char *name, long ncpu, int n_extra, char **extra)
{
	int pci = 0, rc = 0;

	memset(a, 0, offsetof(struct eal_args, affinity_known));
	rc |= eal_add(a, "%s", prog);
	rc |= eal_add(a, "--file-prefix=%s", name);
	rc |= eal_add(a, "--proc-type=primary");
	rc |= lcores(a, cfg, ncpu);
	rc |= eal_add(a, "--main-lcore=0");
	for (uint32_t i = 0; i < cfg->n_ports; i++) {
		const struct dp_port_cfg *pc = &cfg->ports[i];

		if (pc->is_bond) {
			rc |= bond(a, pc, i, &pci);
		} else if (pc->is_vdev) {
			rc |= eal_add(a, "--vdev=%s", pc->dev);
		} else {
			rc |= eal_add(a, "-a");
			rc |= eal_add(a, "%s", pc->dev);
			pci = 1;
		}
	}
	/* No PCI device: IOVA as VA. With --legacy-mem and IOVA as PA, EAL
	 * maps physically contiguous runs of hugepages contiguously and no
	 * more, so on a box whose memory is fragmented (hours after boot) no
	 * allocation above one 2 MB page succeeds: rte_pdump_init()'s 2.1 MB
	 * statistics zone failed and dpdk-dumpcap could not capture. Virtual
	 * devices do no DMA, and as VA the legacy pages form one segment. A
	 * PCI NIC keeps EAL's choice (uio drivers need PA). */
	if (!pci) {
		rc |= eal_add(a, "--no-pci");
		rc |= eal_add(a, "--iova-mode=va");
	}
	/* Legacy memory: every page mapped at start, no hotplug later. A
	 * secondary killed mid-start-up can then only leave a read lock
	 * behind, which never blocks the engine (see lib/attach.c). */
	rc |= eal_add(a, "--legacy-mem");
	if (a->huge_dir[0])
		rc |= eal_add(a, "--huge-dir=%s", a->huge_dir);
	if (cfg->socket_mem[0])
		rc |= eal_add(a, "--socket-mem=%s", cfg->socket_mem);
	else
		rc |= eal_add(a, "-m%lu", eal_mem_needed_mb(cfg));
	rc |= eal_add(a, "--log-level=%u", cfg->log_level ? cfg->log_level : 7);
#ifdef __SANITIZE_ADDRESS__
	/* Under ASan, EAL's default placement can land where a secondary
	 * cannot map it (shadow memory, sanitizer allocator): use a high,
	 * otherwise unused part of the address space. */
	rc |= eal_add(a, "--base-virtaddr=0x200000000000");
#endif
	for (int i = 0; i < n_extra; i++)
		rc |= eal_add(a, "%s", extra[i]);
	return rc ? -1 : 0;
}
