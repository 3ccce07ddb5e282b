/* SPDX-License-Identifier: BSD-3-Clause
 * dperf's number and time syntax ("2k", "1.5m", "100ms", "3.5m"): the
 * config file's and the tools' ("dperf-ctl set cps 2k", "set duration
 * +30s"), which link this file alone of the parser. Pure C, no DPDK.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <strings.h>

#include "numbers.h"

#define FRAC_DIGITS_MAX 18

/* A decimal "123" or "123.456": integer part, fraction digits (at most
 * FRAC_DIGITS_MAX kept; further digits are accepted and dropped). */
struct decimal {
	uint64_t ip;
	uint64_t frac;
	uint64_t frac_scale; /* 10^(kept fraction digits) */
};

static const char *
parse_decimal(const char *s, struct decimal *d)
{
	int nd = 0, nf = 0;

	d->ip = 0;
	d->frac = 0;
	d->frac_scale = 1;
	for (; isdigit((unsigned char)*s); s++, nd++) {
		uint64_t digit = (uint64_t)(*s - '0');
		if (d->ip > (UINT64_MAX - digit) / 10)
			return NULL;
		d->ip = d->ip * 10 + digit;
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, nf++) {
			if (nf >= FRAC_DIGITS_MAX)
				continue;
			d->frac = d->frac * 10 + (uint64_t)(*s - '0');
			d->frac_scale *= 10;
		}
		if (nf == 0)
			return NULL; /* "1." */
	}
	return nd > 0 ? s : NULL;
}

/* d * mult, rounded down. Returns 0, or -1 on overflow. exact tells
 * whether nothing was rounded away. */
static int
scale_decimal(const struct decimal *d, uint64_t mult, uint64_t *out, int *exact)
{
	unsigned __int128 whole = (unsigned __int128)d->ip * mult;
	unsigned __int128 part = (unsigned __int128)d->frac * mult;
	unsigned __int128 total = whole + part / d->frac_scale;

	if (total > UINT64_MAX)
		return -1;
	*exact = (part % d->frac_scale) == 0;
	*out = (uint64_t)total;
	return 0;
}

int
dp_parse_number(const char *s, uint64_t *out)
{
	struct decimal d;
	uint64_t mult = 1, v;
	int exact;

	if (s == NULL || (s = parse_decimal(s, &d)) == NULL)
		return -1;
	switch (tolower((unsigned char)*s)) {
	case 'k': mult = 1000ULL; s++; break;
	case 'm': mult = 1000000ULL; s++; break;
	case 'g': mult = 1000000000ULL; s++; break;
	default: break;
	}
	if (*s != '\0' || scale_decimal(&d, mult, &v, &exact) < 0 || !exact)
		return -1; /* trailing junk, overflow, or not a whole number */
	*out = v;
	return 0;
}

struct time_unit {
	const char *name;
	uint64_t us;
};

static const struct time_unit time_units[] = {
	{ "", 1000000ULL },
	{ "s", 1000000ULL },
	{ "ms", 1000ULL },
	{ "us", 1ULL },
	{ "m", 60ULL * 1000000ULL },
	{ "h", 3600ULL * 1000000ULL },
	{ "d", 86400ULL * 1000000ULL },
};

int
dp_parse_duration_us(const char *s, uint64_t *out)
{
	struct decimal d;
	int exact;

	if (s == NULL || (s = parse_decimal(s, &d)) == NULL)
		return -1;
	for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++) {
		if (strcasecmp(s, time_units[i].name) != 0)
			continue;
		/* fractions of a microsecond are rounded down */
		return scale_decimal(&d, time_units[i].us, out, &exact);
	}
	return -1;
}


unsigned int
dp_env_seconds(const char *name, unsigned int dflt)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (v == NULL || *v == '\0')
		return dflt;
	n = strtol(v, &end, 10);
	return *end == '\0' && n >= 1 && n <= (long)dflt ? (unsigned int)n : dflt;
}
