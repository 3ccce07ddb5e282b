/* SPDX-License-Identifier: BSD-3-Clause
 * A "port" line's device: a PCI address, a vdev, or dperf's bond of
 * several of them, and the ethdev names EAL gives each (pure C: the
 * parser, the EAL arguments and the port setup all use these).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

int
dp_is_pci_addr(const char *s, size_t n)
{
	/* [dddd:]bb:dd.f, hexadecimal, function 0..7 */
	const char *pat4 = "xxxx:xx:xx.f", *pat = pat4;

	if (n == 7)
		pat = pat4 + 5;
	else if (n != 12)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (pat[i] == 'x' && !isxdigit((unsigned char)c))
			return 0;
		if (pat[i] == 'f' && (c < '0' || c > '7'))
			return 0;
		if ((pat[i] == ':' || pat[i] == '.') && c != pat[i])
			return 0;
	}
	return 1;
}

void
dp_dev_name(const char *dev, size_t n, char *out, size_t len)
{
	const char *comma = memchr(dev, ',', n);

	if (comma != NULL)
		n = (size_t)(comma - dev);
	if (n == 7 && dp_is_pci_addr(dev, n))
		snprintf(out, len, "0000:%.*s", (int)n, dev); /* bb:dd.f */
	else
		snprintf(out, len, "%.*s", (int)n, dev);
}

void
dp_port_name(const struct dp_config *cfg, uint32_t i, char *out, size_t len)
{
	const struct dp_port_cfg *pc = &cfg->ports[i];

	if (pc->is_bond)
		snprintf(out, len, "net_bonding%u", i);
	else
		dp_dev_name(pc->dev, strlen(pc->dev), out, len);
}

static int
why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

#define BOND_EXPECTED "expected bondMODE:POLICY(DEV0,DEV1,...) like bond2:2(0000:01:00.0,0000:01:00.1)"

/* One comma-separated piece of the member list begins a new member when it
 * is a PCI address or a vdev name; anything else is a "key=value" argument
 * of the vdev before it (vdev arguments hold commas themselves). */
int
dp_bond_parse(const char *s, struct dp_port_cfg *pc, char *why, size_t whylen)
{
	size_t n = strlen(s);
	const char *p = s + 4;

	if (n >= sizeof(pc->dev))
		return why_set(why, whylen, "bond too long (expected at most %d characters)",
			       DP_DEV_LEN - 1);
	if (strncmp(s, "bond", 4) != 0 || !isdigit((unsigned char)p[0]) || p[1] != ':'
	    || !isdigit((unsigned char)p[2]) || p[3] != '(' || s[n - 1] != ')')
		return why_set(why, whylen, "bad bond \"%s\" (" BOND_EXPECTED ")", s);
	if (p[0] - '0' > DP_BOND_MODE_MAX)
		return why_set(why, whylen, "bad bond mode %c (expected 0 round robin, 1 active "
			       "backup, 2 balance-xor, 3 broadcast or 4 802.3ad)", p[0]);
	if (p[2] - '0' > DP_BOND_POLICY_MAX)
		return why_set(why, whylen, "bad bond policy %c (expected 0 l2, 1 l23 or 2 l34: "
			       "the headers balance-xor and 802.3ad hash)", p[2]);
	if (memchr(s + 8, '(', n - 9) != NULL || memchr(s + 8, ')', n - 9) != NULL)
		return why_set(why, whylen, "bad bond \"%s\" (" BOND_EXPECTED ")", s);
	memset(pc->member_off, 0, sizeof(pc->member_off));
	memset(pc->member_len, 0, sizeof(pc->member_len));
	pc->n_members = 0;
	/* s[7] is '(' and s[n - 1] the closing ')': pieces lie between. */
	for (size_t pos = 8; pos < n; pos += strcspn(s + pos, ",)") + 1) {
		size_t len = strcspn(s + pos, ",)");
		const char *piece = s + pos;
		uint32_t last = pc->n_members - 1u;

		if (len == 0)
			return why_set(why, whylen, "empty member in bond \"%s\" (" BOND_EXPECTED ")",
				       s);
		if (dp_is_pci_addr(piece, len) || strncmp(piece, "net_", 4) == 0) {
			/* A driver's name and an index: nothing a reader's JSON must escape. */
			static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
							 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

			if (!dp_is_pci_addr(piece, len) && (len == 4 || strspn(piece, name_chars) < len))
				return why_set(why, whylen, "bad member \"%.*s\" in bond (expected a "
					       "PCI address or a vdev like net_af_packet0,iface=eth1)",
					       (int)len, piece);
			if (strncmp(piece, "net_bonding", 11) == 0)
				return why_set(why, whylen, "member \"%.*s\" is a bond itself "
					       "(expected PCI addresses or vdevs)", (int)len, piece);
			if (pc->n_members == DP_BOND_MAX_MEMBERS)
				return why_set(why, whylen, "too many members in bond (expected at "
					       "most %d)", DP_BOND_MAX_MEMBERS);
			pc->member_off[pc->n_members] = (uint16_t)pos;
			pc->member_len[pc->n_members++] = (uint16_t)len;
		} else if (pc->n_members == 0 || memchr(piece, '=', len) == NULL
			   || dp_is_pci_addr(s + pc->member_off[last], pc->member_len[last])) {
			return why_set(why, whylen, "bad member \"%.*s\" in bond (expected a PCI "
				       "address, or a vdev like net_af_packet0 and its key=value "
				       "arguments)", (int)len, piece);
		} else { /* an argument of the vdev before it */
			pc->member_len[last] = (uint16_t)(pos + len - pc->member_off[last]);
		}
	}
	if (pc->n_members == 0)
		return why_set(why, whylen, "bond \"%s\" has no members (" BOND_EXPECTED ")", s);
	for (uint32_t i = 0; i < pc->n_members; i++) {
		char a[DP_DEV_LEN], b[DP_DEV_LEN];

		dp_dev_name(s + pc->member_off[i], pc->member_len[i], a, sizeof(a));
		for (uint32_t j = 0; j < i; j++) {
			dp_dev_name(s + pc->member_off[j], pc->member_len[j], b, sizeof(b));
			if (strcmp(a, b) == 0)
				return why_set(why, whylen, "member %s given twice in bond "
					       "(expected each device once)", a);
		}
	}
	memcpy(pc->dev, s, n + 1);
	pc->is_bond = 1;
	pc->bond_mode = (uint8_t)(p[0] - '0');
	pc->bond_policy = (uint8_t)(p[2] - '0');
	return 0;
}
