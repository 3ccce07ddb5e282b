/* SPDX-License-Identifier: BSD-3-Clause
 * dp_escape: control and invisible characters become \xNN, everything
 * printable (UTF-8 included) passes unchanged, escaping is idempotent and
 * never overruns the buffer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "escape.h"

static void
test_cases(void **state)
{
	static const struct { const char *in, *out; } c[] = {
		{ "plain text, / and \\ too", "plain text, / and \\ too" },
		{ "a\x1b[31mred", "a\\x1b[31mred" },
		{ "tab\there\r\n", "tab\\x09here\\x0d\\x0a" },
		{ "del\x7f", "del\\x7f" },
		{ "\xef\xbb\xbf" "mode", "\\xef\\xbb\\xbfmode" },
		{ "zero\xe2\x80\x8bwidth", "zero\\xe2\\x80\\x8bwidth" },
		{ "c1\xc2\x9b", "c1\\xc2\\x9b" },
		{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" }, /* é €: printable */
	};
	char buf[128], again[128];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_string_equal(dp_escape(buf, sizeof(buf), c[i].in), c[i].out);
		assert_string_equal(dp_escape(again, sizeof(again), buf), c[i].out);
	}
}

static void
test_bounds(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	dp_escape(buf, 6, "\x01\x02\x03");
	assert_string_equal(buf, "\\x01"); /* a whole escape or none */
	assert_int_equal(buf[6], 'x');
	dp_escape(buf, 4, "abcdef");
	assert_string_equal(buf, "abc");
	dp_escape(buf, 1, "abc");
	assert_string_equal(buf, "");
	dp_escape(buf, sizeof(buf), "\xef\xbb"); /* a cut sequence: printed as is */
	assert_string_equal(buf, "\xef\xbb");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
