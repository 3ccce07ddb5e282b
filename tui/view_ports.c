/* SPDX-License-Identifier: BSD-3-Clause
 * Per-port view: name, MAC, link, packet and bit rates from the port's
 * own counters, and its error counters (red when non-zero).
 */
#include <stdio.h>

#include "curses.h"
#include "top.h"

void
view_ports(const struct top *t, int y0, int y1)
{
	const struct dp_snapshot *a = &t->a, *b = &t->b;
	uint64_t hz = t->hz;
	int y = y0 + 1;

	ui_put(y++, 0, AT_TITLE, " PORTS (%u)", b->n_ports);
	for (uint32_t p = 0; p < b->n_ports && y + 3 <= y1; p++) {
		const struct dp_port_stats *ps = &t->shm->ports[p];
		const uint8_t *m = ps->mac;
		char a1[16], a2[16];
		int x;

		x = ui_put(y, 0, AT_BOLD, " %u %-24.24s", p, ps->name);
		x = ui_put(y, x, AT_NONE, " %02x:%02x:%02x:%02x:%02x:%02x  link ", m[0], m[1], m[2],
			    m[3], m[4], m[5]);
		x = ui_put(y, x, ps->link_up ? AT_OK : AT_BAD, "%s", ps->link_up ? "up" : "down");
		ui_put(y, x, ps->gw_resolved ? AT_NONE : AT_WARN, "  gateway %s",
			ps->gw_resolved ? "resolved" : "unresolved");
		y++;
		ui_put(y++, 4, AT_NONE, "rx %8s pkt/s %8.3f Gbit/s    tx %8s pkt/s %8.3f Gbit/s",
			top_si(dp_rate_port(a, b, p, DP_PC_IPACKETS, hz), a1, sizeof(a1)),
			dp_rate_port(a, b, p, DP_PC_IBYTES, hz) * 8 / 1e9,
			top_si(dp_rate_port(a, b, p, DP_PC_OPACKETS, hz), a2, sizeof(a2)),
			dp_rate_port(a, b, p, DP_PC_OBYTES, hz) * 8 / 1e9);
		x = 4;
		for (int i = 0; i < top_n_loss_pc; i++)
			x = ui_counter(y, x, dp_port_counter_names[top_loss_pc[i]],
					b->pc[p][top_loss_pc[i]], AT_BAD);
		y += 2;
	}
}
