// SPDX-License-Identifier: GPL-2.0
/*
 * A guest test that fails on purpose (boot --selftest fail): the verdict
 * must turn FAIL when a single TAP result is not ok.
 */
#include "kselftest_harness.h"

TEST(deliberately_fails)
{
	EXPECT_EQ(1, 2) TH_LOG("the boot self-test wants this result to be not ok");
}

TEST_HARNESS_MAIN
