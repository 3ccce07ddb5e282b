/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/boot/eal_args.c: the EAL command line built from the
 * configuration.
 */
// links: primary/boot/eal_args.c
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "boot/eal_args.h"

static int
find_arg(const struct eal_args *a, const char *s)
{
	for (int i = 0; i < a->argc; i++)
		if (strcmp(a->argv[i], s) == 0)
			return i;
	return -1;
}

static int
count_prefix(const struct eal_args *a, const char *prefix)
{
	int n = 0;

	for (int i = 0; i < a->argc; i++)
		if (strncmp(a->argv[i], prefix, strlen(prefix)) == 0)
			n++;
	return n;
}

static void
add_port(struct dp_config *c, const char *dev)
{
	struct dp_port_cfg *p = &c->ports[c->n_ports++];

	snprintf(p->dev, sizeof(p->dev), "%s", dev);
	p->is_vdev = strncmp(dev, "net_", 4) == 0;
}

static struct dp_config
base(void)
{
	struct dp_config c;

	dp_config_defaults(&c);
	c.mode = DP_MODE_CLIENT;
	c.n_cpus = 1;
	c.cpus[0] = 1;
	return c;
}

static struct eal_args *
new_args(void)
{
	struct eal_args *a = calloc(1, sizeof(*a));

	assert_non_null(a);
	return a;
}

static void
test_basic(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();

	(void)state;
	add_port(&c, "net_memif0,role=client,socket=/tmp/m.sock");
	assert_int_equal(eal_args_build(a, "dperf", &c, "dperf_t1", 2, 0, NULL), 0);
	assert_string_equal(a->argv[0], "dperf");
	assert_true(find_arg(a, "--file-prefix=dperf_t1") > 0);
	assert_true(find_arg(a, "--proc-type=primary") > 0);
	assert_true(find_arg(a, "--lcores=0@(0-1),1@1") > 0);
	assert_true(find_arg(a, "--main-lcore=0") > 0);
	assert_true(find_arg(a, "--vdev=net_memif0,role=client,socket=/tmp/m.sock") > 0);
	assert_true(find_arg(a, "--no-pci") > 0);
	/* Virtual devices only: IOVA as VA, so legacy memory is one segment
	 * however fragmented the box's physical pages are. */
	assert_true(find_arg(a, "--iova-mode=va") > 0);
	assert_int_equal(find_arg(a, "-a"), -1);
	assert_int_equal(count_prefix(a, "--socket-mem"), 0);
	/* Memory is all mapped at start, sized from the configuration. */
	assert_true(find_arg(a, "--legacy-mem") > 0);
	assert_int_equal(count_prefix(a, "-m"), 1);
	assert_true(eal_mem_needed_mb(&c) >= 128);
	assert_true(find_arg(a, "--log-level=7") > 0);
	assert_null(a->argv[a->argc]);
	for (int i = 0; i < a->argc; i++) /* every argument lives in buf */
		assert_true(a->argv[i] >= a->buf && a->argv[i] < a->buf + a->used);
	/* no hugetlbfs of its own: EAL's choice */
	assert_int_equal(count_prefix(a, "--huge-dir"), 0);
	free(a);
}

/* The instance's own hugetlbfs (boot/hugedir.h), kept across the build. */
static void
test_huge_dir(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();

	(void)state;
	add_port(&c, "net_memif0,role=client,socket=/tmp/m.sock");
	snprintf(a->huge_dir, sizeof(a->huge_dir), "/run/dperf/hugepages/x");
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	assert_true(find_arg(a, "--huge-dir=/run/dperf/hugepages/x") > 0);
	assert_true(find_arg(a, "--legacy-mem") > 0);
	free(a);
}

static void
test_lcores(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();

	(void)state;
	c.n_cpus = 3;
	c.cpus[0] = 2;
	c.cpus[1] = 3;
	c.cpus[2] = 7;
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 8, 0, NULL), 0);
	assert_true(find_arg(a, "--lcores=0@(0-7),1@2,2@3,3@7") > 0);

	/* Every CPU runs a worker: the main lcore floats over them all too. */
	c.n_cpus = 2;
	c.cpus[0] = 1;
	c.cpus[1] = 0;
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	assert_true(find_arg(a, "--lcores=0@(0-1),1@1,2@0") > 0);

	/* Under taskset/cpuset 2,3: the main lcore floats over 2 and 3; with
	 * only 3 allowed, on 3. */
	c.n_cpus = 1;
	c.cpus[0] = 2;
	a->affinity_known = 1;
	a->allowed[0] = (1u << 2) | (1u << 3);
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 8, 0, NULL), 0);
	assert_true(find_arg(a, "--lcores=0@(2-3),1@2") > 0);
	c.cpus[0] = 3;
	a->allowed[0] = 1u << 3;
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 8, 0, NULL), 0);
	assert_true(find_arg(a, "--lcores=0@(3-3),1@3") > 0);
	a->affinity_known = 0;

	/* One CPU on the box: the main lcore on cpu 0. */
	c.n_cpus = 1;
	c.cpus[0] = 0;
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 1, 0, NULL), 0);
	assert_true(find_arg(a, "--lcores=0@(0-0),1@0") > 0);

	/* All 16 CPUs. */
	c.n_cpus = DP_MAX_CPUS;
	for (int i = 0; i < DP_MAX_CPUS; i++)
		c.cpus[i] = (uint16_t)(i + 16);
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 64, 0, NULL), 0);
	assert_int_equal(count_prefix(a, "--lcores=0@(0-63),1@16,2@17,"), 1);
	assert_int_equal(count_prefix(a, "--lcores="), 1);
	int i = find_arg(a, "--main-lcore=0");
	assert_true(i > 0);
	assert_non_null(strstr(a->argv[i - 1], ",16@31"));
	free(a);
}

static void
test_pci(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();
	int i;

	(void)state;
	add_port(&c, "0000:01:00.0");
	add_port(&c, "0000:01:00.1");
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	i = find_arg(a, "-a");
	assert_true(i > 0);
	assert_string_equal(a->argv[i + 1], "0000:01:00.0");
	assert_string_equal(a->argv[i + 2], "-a");
	assert_string_equal(a->argv[i + 3], "0000:01:00.1");
	assert_int_equal(find_arg(a, "--no-pci"), -1);
	assert_int_equal(count_prefix(a, "--iova-mode"), 0); /* uio NICs need PA */
	assert_int_equal(count_prefix(a, "--vdev"), 0);

	/* Mixed: a PCI port and a vdev, no --no-pci. */
	c = base();
	add_port(&c, "net_tap0,iface=dp0");
	add_port(&c, "0000:02:00.0");
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	assert_true(find_arg(a, "--vdev=net_tap0,iface=dp0") > 0);
	i = find_arg(a, "-a");
	assert_true(i > 0);
	assert_string_equal(a->argv[i + 1], "0000:02:00.0");
	assert_int_equal(find_arg(a, "--no-pci"), -1);

	/* No ports at all: --no-pci. */
	c = base();
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	assert_true(find_arg(a, "--no-pci") > 0);
	free(a);
}

static void
test_socket_mem_and_log(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();

	(void)state;
	snprintf(c.socket_mem, sizeof(c.socket_mem), "1024,512");
	c.log_level = 4;
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	assert_true(find_arg(a, "--socket-mem=1024,512") > 0);
	assert_int_equal(count_prefix(a, "--socket-mem"), 1);
	assert_int_equal(count_prefix(a, "-m"), 0); /* socket_mem replaces -m */
	assert_true(find_arg(a, "--log-level=4") > 0);
	free(a);
}

static void
test_extra(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();
	char *extra[] = { "--iova-mode=va", "-m", "512", "--in-memory" };
	int n = (int)(sizeof(extra) / sizeof(extra[0]));

	(void)state;
	add_port(&c, "net_memif0");
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, n, extra), 0);
	/* Appended last, in order. */
	assert_true(a->argc > n);
	for (int i = 0; i < n; i++)
		assert_string_equal(a->argv[a->argc - n + i], extra[i]);
	assert_null(a->argv[a->argc]);
	free(a);
}

static void
test_overflow(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();
	char *extra[EAL_MAX_ARGS + 8];
	int fixed, fit;

	(void)state;
	for (int i = 0; i < EAL_MAX_ARGS + 8; i++)
		extra[i] = "-v";
	add_port(&c, "net_memif0");
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	fixed = a->argc;
	fit = EAL_MAX_ARGS - fixed;
	assert_true(fit > 0);

	/* Exactly full: fine, argv still NULL-terminated. */
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, fit, extra), 0);
	assert_int_equal(a->argc, EAL_MAX_ARGS);
	assert_null(a->argv[EAL_MAX_ARGS]);
	/* One too many, and far too many: -1, never beyond argv. */
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, fit + 1, extra), -1);
	assert_true(a->argc <= EAL_MAX_ARGS);
	assert_null(a->argv[a->argc]);
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, EAL_MAX_ARGS + 8, extra), -1);
	assert_true(a->argc <= EAL_MAX_ARGS);

	/* Text beyond buf: -1. */
	char *big = malloc(sizeof(a->buf));
	assert_non_null(big);
	memset(big, 'x', sizeof(a->buf) - 1);
	big[sizeof(a->buf) - 1] = '\0';
	char *one[] = { big };
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 1, one), -1);
	assert_true(a->used <= sizeof(a->buf));
	free(big);
	free(a);
}

/* A bond: members first (vdevs with their arguments, PCI addresses with
 * -a), then net_bondingI naming them by their ethdev names. */
static void
test_bond(void **state)
{
	struct dp_config c = base();
	struct eal_args *a = new_args();
	char why[256];
	int i, b;

	(void)state;
	add_port(&c, "net_memif9,role=server");
	assert_int_equal(dp_bond_parse("bond2:1(net_af_packet0,iface=v0,qpairs=1,01:00.1)",
				       &c.ports[c.n_ports++], why, sizeof(why)), 0);
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	i = find_arg(a, "--vdev=net_af_packet0,iface=v0,qpairs=1");
	b = find_arg(a, "--vdev=net_bonding1,mode=2,xmit_policy=l23,slave=net_af_packet0,"
		     "slave=0000:01:00.1");
	assert_true(i > 0 && b > i);
	assert_string_equal(a->argv[i + 1], "-a");
	assert_string_equal(a->argv[i + 2], "01:00.1");
	assert_true(find_arg(a, "--vdev=net_memif9,role=server") > 0);
	assert_int_equal(count_prefix(a, "--vdev"), 3);
	assert_int_equal(find_arg(a, "--no-pci"), -1);

	/* Only vdev members: no PCI device, --no-pci; policy 2 is l34. */
	c = base();
	assert_int_equal(dp_bond_parse("bond0:2(net_af_packet0,iface=v0,net_af_packet1,iface=v1)",
				       &c.ports[c.n_ports++], why, sizeof(why)), 0);
	assert_int_equal(eal_args_build(a, "dperf", &c, "x", 2, 0, NULL), 0);
	assert_true(find_arg(a, "--vdev=net_bonding0,mode=0,xmit_policy=l34,slave=net_af_packet0,"
			     "slave=net_af_packet1") > find_arg(a, "--vdev=net_af_packet1,iface=v1"));
	assert_true(find_arg(a, "--no-pci") > 0);
	free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_huge_dir),
		cmocka_unit_test(test_lcores),
		cmocka_unit_test(test_pci),
		cmocka_unit_test(test_bond),
		cmocka_unit_test(test_socket_mem_and_log),
		cmocka_unit_test(test_extra),
		cmocka_unit_test(test_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
