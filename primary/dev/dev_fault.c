/* SPDX-License-Identifier: BSD-3-Clause
 * Surviving DPDK 22.11's memif disconnect race.
 *
 * When the peer goes away, the memif PMD's interrupt thread clears the
 * port's "connected" flag and then unmaps the shared regions. A worker
 * that passed the flag check a moment before is still inside the RX or TX
 * burst, reading a ring that is no longer there: SIGSEGV (seen here at
 * ring + 6, ring->head, in eth_memif_rx, at the end of one run in ten or
 * so: the interrupt thread shares the worker's core and preempts it
 * mid-burst). The PMD takes no lock a worker could wait on, so instead a
 * fault whose instruction is in the memif PMD's code and whose address is
 * unmapped sends the worker back to the top of its loop (siglongjmp): the
 * burst is abandoned, counted (devFault), and the PMD, its flag cleared,
 * returns nothing until the peer reconnects. At most the burst's mbufs
 * are lost. Any other fault is a crash, as before.
 */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include <rte_ethdev.h>

#include "dev/dev_fault.h"
#include "net/pkt.h"

static __thread struct dev_fault *fault_f;
static struct sigaction prev_segv;

struct text_find {
	uintptr_t pc, lo, hi;
	int is_memif;
};

static int
find_text(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct text_find *f = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (f->pc >= lo && f->pc < lo + ph->p_memsz) {
			f->lo = lo;
			f->hi = lo + ph->p_memsz;
			f->is_memif = strstr(info->dlpi_name, "memif") != NULL;
			return 1;
		}
	}
	return 0;
}

static void
on_segv(int sig, siginfo_t *si, void *ctx)
{
	struct dev_fault *f = fault_f;
#ifdef __x86_64__
	uintptr_t pc = (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
#else
	uintptr_t pc = 0; /* elsewhere: no recovery, a crash as before */
	(void)ctx;
#endif

	if (f != NULL && si->si_code == SEGV_MAPERR && pc >= f->pmd_text_lo && pc < f->pmd_text_hi)
		siglongjmp(f->jb, 1);
	/* Not the race: let the fault happen again with what was there
	 * before (the default action, or a sanitizer's report). */
	sigaction(sig, &prev_segv, NULL);
}

int
dev_fault_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGSEGV, &sa, &prev_segv);
}

void
dev_fault_find_pmd(struct dev_fault *f, uint16_t port_id)
{
	struct rte_eth_dev_info info;
	struct text_find t = { .pc = (uintptr_t)rte_eth_fp_ops[port_id].rx_pkt_burst };

	f->pmd_text_lo = f->pmd_text_hi = 0;
	if (rte_eth_dev_info_get(port_id, &info) != 0 || info.driver_name == NULL ||
	    strcmp(info.driver_name, "net_memif") != 0)
		return;
	if (dl_iterate_phdr(find_text, &t) == 1 && t.is_memif) {
		f->pmd_text_lo = t.lo;
		f->pmd_text_hi = t.hi;
	}
}

void
dev_fault_arm(struct dev_fault *f)
{
	fault_f = f != NULL && f->pmd_text_hi ? f : NULL;
}

void
dev_fault_recover(struct netw *nw)
{
	struct txq *q = &nw->txq;

	CNT(&nw->cnt, DEV_FAULT);
	if (q->in_tx) {
		/* The PMD may have freed part of the batch already: forget
		 * it (a leak of at most one batch) rather than free twice. */
		CNT_ADD(&nw->cnt, DROP_TX, tx_pending(q));
		q->head = q->n = 0;
		q->blocked = 0;
		q->in_tx = 0;
		pkt_flood_forget(nw);
	}
}
