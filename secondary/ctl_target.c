/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "ctl_msg.h"
#include "ctl_target.h"

int
ctl_parse_target(const char *what, const char *val, uint32_t *op, int64_t *value, char *err,
		 size_t errlen)
{
	uint64_t v;

	if (strcmp(what, "cps") == 0 || strcmp(what, "cc") == 0) {
		if (dp_parse_number(val, &v) != 0 || v > INT64_MAX) {
			snprintf(err, errlen, "bad number \"%s\" (expected e.g. 100, 2k, 1.5m)", val);
			return -1;
		}
		*op = what[1] == 'p' ? DP_OP_SET_CPS : DP_OP_SET_CC;
		*value = (int64_t)v;
		return 0;
	}
	if (strcmp(what, "duration") == 0) {
		const char *t = val;
		int sign = 0;

		if (*t == '+' || *t == '-')
			sign = *t++ == '+' ? 1 : -1;
		if (dp_parse_duration_us(t, &v) != 0 || v > INT64_MAX) {
			snprintf(err, errlen, "bad time \"%s\" (expected e.g. 60s, 2m, +5s, -10s)", val);
			return -1;
		}
		*op = sign ? DP_OP_ADD_DURATION : DP_OP_SET_DURATION;
		*value = sign < 0 ? -(int64_t)v : (int64_t)v;
		return 0;
	}
	if (strcmp(what, "weight") == 0) {
		snprintf(err, errlen, "expected 'set weight KIND N'");
		return -1;
	}
	snprintf(err, errlen, "unknown target \"%s\" (expected cps, cc, duration or weight)", what);
	return -1;
}

int
ctl_parse_weight(const char *kind, const char *val, uint32_t *op, int64_t *value, char *kind_out,
		 size_t kl, char *err, size_t errlen)
{
	const char *t = val + (val[0] == '-');
	uint64_t v;

	if (kind[0] == '\0' || strlen(kind) >= DP_CTL_KIND_LEN || kl < DP_CTL_KIND_LEN) {
		snprintf(err, errlen, "no kind is named \"%.40s%s\" (a kind's name is 1 to %d characters)", kind,
			 strlen(kind) > 40 ? "..." : "", DP_CTL_KIND_LEN - 1);
		return -1;
	}
	if (dp_parse_number(t, &v) != 0 || v > INT64_MAX) {
		snprintf(err, errlen, "bad weight \"%s\" (expected a number, 0 to %d)", val, DP_KIND_WEIGHT_MAX);
		return -1;
	}
	*op = DP_OP_SET_WEIGHT;
	*value = t != val ? -(int64_t)v : (int64_t)v;
	snprintf(kind_out, kl, "%s", kind);
	return 0;
}

#define WS " \t\r\n"

/* "KEY": at *pp, KEY into key (kl bytes). */
static int
json_key(const char **pp, char *key, size_t kl, const char *example, char *why, size_t n)
{
	const char *p = *pp + strspn(*pp, WS);
	size_t l;

	if (*p++ != '"' || (l = strcspn(p, "\"\\")) >= kl || p[l] != '"')
		return snprintf(why, n, "bad JSON: expected a key such as %s", example), -1;
	snprintf(key, kl, "%.*s", (int)l, p);
	p += l + 1;
	p += strspn(p, WS);
	if (*p++ != ':')
		return snprintf(why, n, "bad JSON: expected ':' after \"%s\"", key), -1;
	*pp = p;
	return 0;
}

/* A number or a string without escapes at *pp, into val (vl bytes). */
static int
json_scalar(const char **pp, const char *key, char *val, size_t vl, char *why, size_t n)
{
	const char *p = *pp + strspn(*pp, WS);
	size_t l;

	if (*p == '"') {
		p++;
		if ((l = strcspn(p, "\"\\")) >= vl || p[l] != '"')
			return snprintf(why, n, "bad JSON: an unterminated, escaped or long value"), -1;
		snprintf(val, vl, "%.*s", (int)l, p);
		p += l + 1;
	} else {
		if ((l = strspn(p, "0123456789.eE+-")) == 0 || l >= vl)
			return snprintf(why, n, "bad JSON: the value of \"%s\" is not a number or a string", key), -1;
		snprintf(val, vl, "%.*s", (int)l, p);
		p += l;
	}
	*pp = p + strspn(p, WS);
	return 0;
}

int
ctl_parse_target_json(const char *p, uint32_t *op, int64_t *value, char *kind_out, size_t kl, char *why,
		      size_t n)
{
	char key[32], val[64], kind[128];
	int weight;

	kind_out[0] = '\0';
	p += strspn(p, WS);
	if (*p++ != '{')
		return snprintf(why, n, "expected a JSON object such as {\"cps\": 2000}"), -1;
	if (json_key(&p, key, sizeof(key), "\"cps\"", why, n) != 0)
		return -1;
	weight = strcmp(key, "weight") == 0;
	if (weight) { /* {"weight": {"KIND": N}} */
		p += strspn(p, WS);
		if (*p++ != '{')
			return snprintf(why, n, "bad JSON: expected {\"weight\": {\"KIND\": N}}"), -1;
		if (json_key(&p, kind, sizeof(kind), "a kind's name", why, n) != 0 ||
		    json_scalar(&p, kind, val, sizeof(val), why, n) != 0)
			return -1;
		if (*p == ',')
			return snprintf(why, n, "one weight per request"), -1;
		if (*p++ != '}')
			return snprintf(why, n, "bad JSON: expected '}' after the weight"), -1;
		p += strspn(p, WS);
	} else if (json_scalar(&p, key, val, sizeof(val), why, n) != 0) {
		return -1;
	}
	if (*p == ',')
		return snprintf(why, n, "one target per request (cps, cc, duration or weight)"), -1;
	if (*p++ != '}' || p[strspn(p, WS)] != '\0')
		return snprintf(why, n, "bad JSON: expected '}' after the value"), -1;
	if (weight)
		return ctl_parse_weight(kind, val, op, value, kind_out, kl, why, n);
	return ctl_parse_target(key, val, op, value, why, n);
}
