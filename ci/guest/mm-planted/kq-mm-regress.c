// SPDX-License-Identifier: GPL-2.0
/*
 * Planted in /mm by boot --selftest mm: an mm selftest that fails only on
 * a kernel with the queue's topics.  It stands for a regression a topic
 * brings: the integration kernel ran the mm-fault-kunit topic's KUnit suite
 * vm_fault_errno at boot (its KTAP is in the kernel log), the packaged base
 * kernel has no such suite, so the base rerun must pass it and the verdict
 * must name it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "kselftest_harness.h"

#define SYSLOG_ACTION_READ_ALL	3
#define SYSLOG_ACTION_SIZE_BUFFER	10
#define TOPIC_SUITE "# Subtest: vm_fault_errno"

TEST(fails_with_the_topics)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *log;
	int n;

	ASSERT_LT(0, size);
	log = calloc(1, size + 1);
	ASSERT_NE(NULL, log);
	n = klogctl(SYSLOG_ACTION_READ_ALL, log, size);
	ASSERT_LE(0, n);
	EXPECT_EQ(NULL, strstr(log, TOPIC_SUITE))
		TH_LOG("the kernel log has \"%s\": this kernel has the topics", TOPIC_SUITE);
	free(log);
}

TEST_HARNESS_MAIN
