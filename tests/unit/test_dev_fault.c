/* SPDX-License-Identifier: BSD-3-Clause
 * Unit tests of primary/dev/dev_fault.c: a fault on an unmapped address whose
 * instruction lies in the PMD's code returns the worker to its sigsetjmp,
 * counted in devFault, and a TX batch in flight is forgotten (dropTx);
 * every other fault (in our code, a protection fault in the PMD, or no
 * worker armed) still kills the process with SIGSEGV.
 *
 * Two functions in a section of their own stand in for the PMD's code;
 * the linker's __start_/__stop_ symbols bound it.
 */
// links: primary/dev/dev_fault.c
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "shm.h"
#include "dev/dev_fault.h"
#include "engine/worker.h"

/* Below mmap_min_addr: never mapped, so a read there is SEGV_MAPERR. */
#define HOLE ((volatile uint8_t *)(uintptr_t)0x1000)

extern const char __start_fake_pmd[], __stop_fake_pmd[];

__attribute__((noinline, section("fake_pmd"))) static uint8_t
fake_pmd_read(volatile uint8_t *p)
{
	return *p;
}

__attribute__((noinline, section("fake_pmd"))) static void
fake_pmd_write(volatile uint8_t *p)
{
	*p = 1;
}

static struct worker *wk;
static int flood_forgotten;

/* pkt.c's, which this test does not link */
void
pkt_flood_forget(struct worker *fw)
{
	(void)fw;
	flood_forgotten++;
}

static int
setup(void **state)
{
	(void)state;
	wk = calloc(1, sizeof(*wk));
	if (wk == NULL)
		return -1;
	flood_forgotten = 0;
	wk->fault.pmd_text_lo = (uintptr_t)__start_fake_pmd;
	wk->fault.pmd_text_hi = (uintptr_t)__stop_fake_pmd;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	dev_fault_arm(NULL);
	free(wk);
	return 0;
}

/* Faults in the fake PMD n times; returns how many came back. */
static int
fault_in_pmd(int n)
{
	volatile int back = 0;

	/* cmocka sets its own SIGSEGV handler around each test function (not
	 * around fixtures): ours goes over it, as over the default action in
	 * the engine. */
	assert_int_equal(dev_fault_install(), 0);
	for (volatile int i = 0; i < n; i++) {
		if (sigsetjmp(wk->fault.jb, 1) == 0) {
			dev_fault_arm(&wk->fault);
			(void)fake_pmd_read(HOLE);
		} else {
			dev_fault_recover(&wk->net);
			back++;
		}
	}
	dev_fault_arm(NULL);
	return back;
}

static void
test_pmd_fault_returns(void **state)
{
	(void)state;
	assert_int_equal(fault_in_pmd(1), 1);
	assert_int_equal(wk->net.cnt.c[DP_C_DEV_FAULT], 1);
	assert_int_equal(wk->net.cnt.c[DP_C_DROP_TX], 0);
	assert_int_equal(flood_forgotten, 0); /* no batch was in flight */
}

static void
test_handler_stays_after_recovery(void **state)
{
	(void)state;
	assert_int_equal(fault_in_pmd(3), 3);
	assert_int_equal(wk->net.cnt.c[DP_C_DEV_FAULT], 3);
}

static void
test_tx_batch_in_flight_is_forgotten(void **state)
{
	(void)state;
	wk->net.txq.head = 2;
	wk->net.txq.n = 7;
	wk->net.txq.blocked = 1;
	wk->net.txq.in_tx = 1;
	assert_int_equal(fault_in_pmd(1), 1);
	assert_int_equal(wk->net.cnt.c[DP_C_DROP_TX], 5);
	assert_int_equal(wk->net.txq.n, 0);
	assert_int_equal(wk->net.txq.head, 0);
	assert_int_equal(wk->net.txq.in_tx, 0);
	assert_int_equal(wk->net.txq.blocked, 0);
	assert_int_equal(flood_forgotten, 1); /* its mbufs may be in the batch */
}

/* In a child with the default SIGSEGV action under ours: how it ended. */
static int
child_signal(int how)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		static uint8_t *ro;

		signal(SIGSEGV, SIG_DFL);
		if (dev_fault_install() != 0)
			_exit(2);
		ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ro == MAP_FAILED)
			_exit(2);
		if (how != 2)
			dev_fault_arm(&wk->fault);
		if (how == 0)
			(void)*HOLE;               /* our code, not the PMD's */
		else if (how == 1)
			fake_pmd_write(ro);        /* the PMD, but a protection fault */
		else
			(void)fake_pmd_read(HOLE); /* the PMD, but no worker armed */
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) ? WTERMSIG(status) : -WEXITSTATUS(status);
}

static void
test_fault_in_our_code_crashes(void **state)
{
	(void)state;
	assert_int_equal(child_signal(0), SIGSEGV);
}

static void
test_protection_fault_in_pmd_crashes(void **state)
{
	(void)state;
	assert_int_equal(child_signal(1), SIGSEGV);
}

static void
test_unarmed_thread_crashes(void **state)
{
	(void)state;
	assert_int_equal(child_signal(2), SIGSEGV);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pmd_fault_returns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_handler_stays_after_recovery, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tx_batch_in_flight_is_forgotten, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_in_our_code_crashes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protection_fault_in_pmd_crashes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unarmed_thread_crashes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
