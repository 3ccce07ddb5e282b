/* SPDX-License-Identifier: BSD-3-Clause
 * dperf-ctl's reading of a change (secondary/ctl_target.c), on its command
 * line and in its HTTP API's PUT /v1/target body: set weight KIND N (issue
 * 37) beside cps, cc and duration. What is a valid kind and weight is the
 * primary's to say (test_control); here only what fits a request.
 */
// links: secondary/ctl_target.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ctl_msg.h"
#include "ctl_target.h"

static void
test_weight_args(void **state)
{
	char kind[DP_CTL_KIND_LEN], err[200], name[64];
	uint32_t op = 0;
	int64_t v = 0;

	(void)state;
	assert_int_equal(ctl_parse_weight("big.1", "10", &op, &v, kind, sizeof(kind), err, sizeof(err)), 0);
	assert_int_equal(op, DP_OP_SET_WEIGHT);
	assert_int_equal(v, 10);
	assert_string_equal(kind, "big.1");
	assert_int_equal(ctl_parse_weight("a", "2k", &op, &v, kind, sizeof(kind), err, sizeof(err)), 0);
	assert_int_equal(v, 2000);
	/* out of range, but a number: the primary says the range */
	assert_int_equal(ctl_parse_weight("a", "-1", &op, &v, kind, sizeof(kind), err, sizeof(err)), 0);
	assert_int_equal(v, -1);
	assert_int_equal(ctl_parse_weight("a", "2000000", &op, &v, kind, sizeof(kind), err, sizeof(err)), 0);
	assert_int_equal(v, 2000000);
	/* not a number */
	assert_int_equal(ctl_parse_weight("a", "lots", &op, &v, kind, sizeof(kind), err, sizeof(err)), -1);
	assert_string_equal(err, "bad weight \"lots\" (expected a number, 0 to 1000000)");
	assert_int_equal(ctl_parse_weight("a", "--1", &op, &v, kind, sizeof(kind), err, sizeof(err)), -1);
	/* the longest name fits a request, one more does not */
	memset(name, 'k', sizeof(name));
	name[DP_CTL_KIND_LEN - 1] = '\0';
	assert_int_equal(ctl_parse_weight(name, "1", &op, &v, kind, sizeof(kind), err, sizeof(err)), 0);
	assert_string_equal(kind, name);
	name[DP_CTL_KIND_LEN - 1] = 'k';
	name[DP_CTL_KIND_LEN] = '\0';
	assert_int_equal(ctl_parse_weight(name, "1", &op, &v, kind, sizeof(kind), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a kind's name is 1 to 31 characters"));
	assert_int_equal(ctl_parse_weight("", "1", &op, &v, kind, sizeof(kind), err, sizeof(err)), -1);
	/* "set weight N" without a kind */
	assert_int_equal(ctl_parse_target("weight", "5", &op, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "expected 'set weight KIND N'");
}

static void
test_target_json(void **state)
{
	char kind[DP_CTL_KIND_LEN], why[200];
	uint32_t op = 0;
	int64_t v = 0;

	(void)state;
	assert_int_equal(ctl_parse_target_json(" {\"weight\": {\"big\": 10}}\n", &op, &v, kind, sizeof(kind), why,
					       sizeof(why)), 0);
	assert_int_equal(op, DP_OP_SET_WEIGHT);
	assert_int_equal(v, 10);
	assert_string_equal(kind, "big");
	assert_int_equal(ctl_parse_target_json("{\"weight\":{\"small\":\"1k\"}}", &op, &v, kind, sizeof(kind), why,
					       sizeof(why)), 0);
	assert_int_equal(v, 1000);
	assert_string_equal(kind, "small");
	assert_int_equal(ctl_parse_target_json("{\"weight\":{\"small\":-5}}", &op, &v, kind, sizeof(kind), why,
					       sizeof(why)), 0);
	assert_int_equal(v, -5);
	/* the other targets as before, no kind */
	assert_int_equal(ctl_parse_target_json("{\"cps\": 2000}", &op, &v, kind, sizeof(kind), why, sizeof(why)), 0);
	assert_int_equal(op, DP_OP_SET_CPS);
	assert_int_equal(v, 2000);
	assert_string_equal(kind, "");
	assert_int_equal(ctl_parse_target_json("{\"duration\": \"+30s\"}", &op, &v, kind, sizeof(kind), why,
					       sizeof(why)), 0);
	assert_int_equal(op, DP_OP_ADD_DURATION);
	/* one weight, one target, a kind's name that fits */
	assert_int_equal(ctl_parse_target_json("{\"weight\": {\"a\": 1, \"b\": 2}}", &op, &v, kind, sizeof(kind),
					       why, sizeof(why)), -1);
	assert_string_equal(why, "one weight per request");
	assert_int_equal(ctl_parse_target_json("{\"weight\": {\"a\": 1}, \"cps\": 2}", &op, &v, kind, sizeof(kind),
					       why, sizeof(why)), -1);
	assert_string_equal(why, "one target per request (cps, cc, duration or weight)");
	assert_int_equal(ctl_parse_target_json("{\"weight\": 5}", &op, &v, kind, sizeof(kind), why, sizeof(why)), -1);
	assert_string_equal(why, "bad JSON: expected {\"weight\": {\"KIND\": N}}");
	assert_int_equal(ctl_parse_target_json("{\"weight\": {\"a\": 1}", &op, &v, kind, sizeof(kind), why,
					       sizeof(why)), -1);
	assert_string_equal(why, "bad JSON: expected '}' after the value");
	assert_int_equal(ctl_parse_target_json("{\"weight\": {\"a_name_of_forty_characters_xxxxxxxxxx\": 1}}", &op,
					       &v, kind, sizeof(kind), why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no kind is named \"a_name_of_forty_characters_xxxxxxxxxx\""));
	assert_int_equal(ctl_parse_target_json("{\"weight\": {\"a\": \"many\"}}", &op, &v, kind, sizeof(kind), why,
					       sizeof(why)), -1);
	assert_non_null(strstr(why, "bad weight \"many\""));
	assert_int_equal(ctl_parse_target_json("{\"speed\": 1}", &op, &v, kind, sizeof(kind), why, sizeof(why)), -1);
	assert_string_equal(why, "unknown target \"speed\" (expected cps, cc, duration or weight)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weight_args),
		cmocka_unit_test(test_target_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
