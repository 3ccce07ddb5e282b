/* SPDX-License-Identifier: BSD-3-Clause
 * Value parsers of the config file: addresses and address ranges (the
 * number and time syntax: numbers.c). Pure C, no DPDK.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

int
dp_parse_ip(const char *s, struct dp_ip *ip)
{
	struct dp_ip r;

	memset(&r, 0, sizeof(r));
	if (s == NULL)
		return -1;
	if (inet_pton(AF_INET, s, &r.v4) == 1)
		r.family = 4;
	else if (inet_pton(AF_INET6, s, r.v6) == 1)
		r.family = 6;
	else
		return -1;
	*ip = r;
	return 0;
}

const char *
dp_ip_str(const struct dp_ip *ip, char *buf, size_t len)
{
	const char *r = NULL;

	if (len == 0)
		return buf;
	if (ip->family == 4)
		r = inet_ntop(AF_INET, &ip->v4, buf, (socklen_t)len);
	else if (ip->family == 6)
		r = inet_ntop(AF_INET6, ip->v6, buf, (socklen_t)len);
	if (r == NULL)
		snprintf(buf, len, "-");
	return buf;
}

struct dp_ip
dp_range_addr(const struct dp_range *r, uint32_t i)
{
	struct dp_ip ip = r->start;

	if (ip.family == 4) {
		ip.v4 = htonl(ntohl(ip.v4) + i);
	} else if (ip.family == 6) {
		/* add i to the address as a big-endian number */
		uint64_t carry = i;
		for (int b = 15; b >= 0 && carry != 0; b--) {
			carry += ip.v6[b];
			ip.v6[b] = (uint8_t)(carry & 0xff);
			carry >>= 8;
		}
	}
	return ip;
}
