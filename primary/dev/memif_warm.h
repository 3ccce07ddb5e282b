/* SPDX-License-Identifier: BSD-3-Clause
 * Faulting in the memif shared memory before traffic (main lcore).
 */
#ifndef DPERF_MEMIF_WARM_H
#define DPERF_MEMIF_WARM_H

#include <stdint.h>

/* Fault in every memif region this process maps; returns the bytes. */
uint64_t memif_warm_regions(void);

#endif
