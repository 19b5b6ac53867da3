// SPDX-License-Identifier: GPL-2.0
/*
 * Planted in /mm by boot --selftest mm: the address-space layout the mm
 * selftests assume, which must hold on every kernel.  uffd-unit-tests maps
 * its shmem areas at a fixed hint of 1 GiB (BASE_PMD_ADDR) and fails when
 * the kernel places them elsewhere.  From 6.9 on, x86_64 randomizes the
 * start of the heap over 1 GiB past the program, so a static test program's
 * heap covers that hint in some boots: a failure that comes and goes and
 * says nothing about the kernel under test.  kq-init runs the mm selftests
 * with randomize_va_space=1 (stack, mmap and vDSO still randomized, the
 * heap not); this program fails if the heap starts far from the program.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

/* fields 45 to 47 of /proc/PID/stat: start_data, end_data, start_brk */
#define STAT_END_DATA	46
#define STAT_START_BRK	47
#define HEAP_GAP_MAX	(4UL << 20)
#define SEP		" "

TEST(heap_follows_program)
{
	unsigned long end_data = 0, start_brk = 0;
	char buf[2048], *p, *tok;
	FILE *f = fopen("/proc/self/stat", "r");
	int field = 2;
	size_t n;

	ASSERT_NE(NULL, f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the command name (field 2) may hold spaces: count from its ')' */
	p = strrchr(buf, ')');
	ASSERT_NE(NULL, p);
	for (tok = strtok(p + 1, SEP); tok; tok = strtok(NULL, SEP)) {
		field++;
		if (field == STAT_END_DATA)
			end_data = strtoul(tok, NULL, 0);
		if (field == STAT_START_BRK)
			start_brk = strtoul(tok, NULL, 0);
	}
	ASSERT_LE(STAT_START_BRK, field);
	ASSERT_LE(end_data, start_brk);
	EXPECT_GT(HEAP_GAP_MAX, start_brk - end_data)
		TH_LOG("the heap starts %lu MiB past the program's data: randomized",
		       (start_brk - end_data) >> 20);
}

TEST_HARNESS_MAIN
