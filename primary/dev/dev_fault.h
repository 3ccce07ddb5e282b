/* SPDX-License-Identifier: BSD-3-Clause
 * A worker survives the memif PMD faulting on regions its peer's
 * disconnect just unmapped (see dev_fault.c).
 */
#ifndef DPERF_DEV_FAULT_H
#define DPERF_DEV_FAULT_H

#include <setjmp.h>
#include <stdint.h>

#include "net/netw.h"

/* A worker's fault state: its PMD's code, and where a fault in it
 * returns to. */
struct dev_fault {
	uintptr_t pmd_text_lo, pmd_text_hi;
	sigjmp_buf jb;
};

/* Once per process, before the workers start. */
int dev_fault_install(void);
/* On the main lcore once the port has started: where port_id's PMD's
 * code is, if it is memif (otherwise nothing is armed). */
void dev_fault_find_pmd(struct dev_fault *f, uint16_t port_id);
/* On the worker's own thread, after sigsetjmp(f->jb, 1); NULL disarms. */
void dev_fault_arm(struct dev_fault *f);
/* Back at sigsetjmp from a fault: count it, and forget a TX batch the
 * device was in the middle of. Other state is left as the fault found it:
 * the rest of the RX burst and the mbufs the PMD held are lost. */
void dev_fault_recover(struct netw *nw);

#endif
