// SPDX-License-Identifier: GPL-2.0
/*
 * Planted in /mm by boot --selftest mm: an mm selftest that fails on every
 * kernel.  The rerun on the base kernel must classify it "fails on base":
 * shown, not held against the topics.
 */
#include "kselftest_harness.h"

TEST(fails_everywhere)
{
	EXPECT_EQ(1, 2) TH_LOG("planted: fails on the base kernel too");
}

TEST(passes_everywhere)
{
	EXPECT_EQ(1, 1);
}

TEST_HARNESS_MAIN
