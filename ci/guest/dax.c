// SPDX-License-Identifier: GPL-2.0
/*
 * DAX fault paths on ext4 over legacy e820 pmem (memmap=256M!512M): read
 * faults on holes, write faults, PMD faults, MAP_SYNC faults, and the
 * fault results the fs_dax trace events print for each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kq.h"

#ifndef STATX_ATTR_DAX
#define STATX_ATTR_DAX		0x00200000
#endif

#define DEV	"/dev/pmem0"
#define MNT	"/mnt/dax"
#define SZ_2M	(2UL << 20)

static int setup_err = -1;

static int dax_mount(void)
{
	return mount(DEV, MNT, "ext4", 0, "dax=always");
}

__attribute__((constructor)) static void dax_setup(void)
{
	static char *const mkfs[] = { "/sbin/mke2fs", "-q", "-F", "-t", "ext4", "-b", "4096",
				      "-E", "stride=512,stripe_width=512", DEV, NULL };

	mkdir(MNT, 0755);
	if (kq_run(mkfs) || dax_mount() || kq_trace_enable("fs_dax"))
		return;
	setup_err = 0;
}

/* A new file of len bytes, allocated (fallocate) or a hole (truncate). */
static int new_file(const char *name, size_t len, int allocate)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), MNT "/%s", name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (allocate ? fallocate(fd, 0, 0, len) : ftruncate(fd, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

TEST(dax_is_on)
{
	struct statx stx;
	int fd;

	ASSERT_EQ(0, setup_err) TH_LOG("mkfs/mount -o dax of " DEV " failed");
	fd = new_file("statx", 4096, 1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	EXPECT_TRUE(!!(stx.stx_attributes_mask & STATX_ATTR_DAX));
	EXPECT_TRUE(!!(stx.stx_attributes & STATX_ATTR_DAX));
	close(fd);
}

TEST(read_fault_on_hole)
{
	char res[4096];
	unsigned char *p;
	size_t i, len = 16 * 4096;
	int fd, n, zero = 1;

	ASSERT_EQ(0, setup_err);
	fd = new_file("hole", len, 0);
	ASSERT_LE(0, fd);
	kq_trace_clear();
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < len; i += 4096)
		zero &= p[i] == 0 && p[i + 4095] == 0;
	EXPECT_TRUE(zero);
	munmap(p, len);
	close(fd);
	/* each page of the hole is the zero page, and the fault says so */
	EXPECT_LE(1, kq_trace_values("dax_load_hole", NULL, res, sizeof(res)));
	n = kq_trace_values("dax_pte_fault_done", NULL, res, sizeof(res));
	ASSERT_LE(1, n);
	EXPECT_TRUE(kq_any_has_flag(res, n, "NOPAGE"));
	EXPECT_FALSE(kq_any_has_flag(res, n, "SIGBUS"));
}

TEST(write_fault_reaches_the_file)
{
	char res[4096], buf[4096];
	unsigned char *p;
	size_t len = 8 * 4096;
	int fd, n;

	ASSERT_EQ(0, setup_err);
	fd = new_file("write", len, 0);
	ASSERT_LE(0, fd);
	kq_trace_clear();
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	memset(p + 4096, 0x5a, 4096);
	munmap(p, len);
	ASSERT_EQ(4096, pread(fd, buf, 4096, 4096));
	EXPECT_EQ(0x5a, (unsigned char)buf[0]);
	EXPECT_EQ(0x5a, (unsigned char)buf[4095]);
	close(fd);
	n = kq_trace_values("dax_pte_fault_done", NULL, res, sizeof(res));
	ASSERT_LE(1, n);
	EXPECT_TRUE(kq_any_has_flag(res, n, "NOPAGE"));
	EXPECT_FALSE(kq_any_has_flag(res, n, "SIGBUS"));
}

TEST(pmd_fault_on_aligned_mapping)
{
	char res[4096];
	unsigned char *area, *p;
	uintptr_t aligned;
	int fd, n;

	ASSERT_EQ(0, setup_err);
	fd = new_file("pmd", 2 * SZ_2M, 1);
	ASSERT_LE(0, fd);
	/* reserve 3 x 2 MiB, map the file at the first 2 MiB boundary */
	area = mmap(NULL, 3 * SZ_2M, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, area);
	aligned = ((uintptr_t)area + SZ_2M - 1) & ~(SZ_2M - 1);
	kq_trace_clear();
	p = mmap((void *)aligned, 2 * SZ_2M, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, 0);
	ASSERT_EQ((void *)aligned, p);
	p[0] = 1;
	p[SZ_2M + 17] = 2;
	EXPECT_EQ(1, p[0]);
	EXPECT_EQ(2, p[SZ_2M + 17]);
	munmap(area, 3 * SZ_2M);
	close(fd);
	n = kq_trace_values("dax_pmd_fault_done", NULL, res, sizeof(res));
	ASSERT_LE(1, n) TH_LOG("no PMD fault was traced");
	EXPECT_TRUE(kq_any_has_flag(res, n, "NOPAGE"));
	EXPECT_FALSE(kq_any_has_flag(res, n, "FALLBACK"))
		TH_LOG("PMD fault fell back to PTEs: %s", res);
	EXPECT_FALSE(kq_any_has_flag(res, n, "SIGBUS"));
}

TEST(map_sync_write_fault_needs_dsync)
{
	char res[4096];
	unsigned char *p;
	size_t len = 4 * 4096;
	int fd, n;

	ASSERT_EQ(0, setup_err);
	fd = new_file("sync", len, 0);
	ASSERT_LE(0, fd);
	kq_trace_clear();
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	ASSERT_NE(MAP_FAILED, p) TH_LOG("MAP_SYNC refused: %s", strerror(errno));
	p[100] = 7;
	EXPECT_EQ(7, p[100]);
	munmap(p, len);
	close(fd);
	/* the block was allocated, so the fault must have asked for a sync */
	n = kq_trace_values("dax_pte_fault_done", NULL, res, sizeof(res));
	ASSERT_LE(1, n);
	EXPECT_TRUE(kq_any_has_flag(res, n, "NEEDDSYNC")) TH_LOG("results: %s", res);
}

TEST(data_survives_remount)
{
	unsigned char *p;
	int fd;

	ASSERT_EQ(0, setup_err);
	fd = new_file("keep", 4096, 1);
	ASSERT_LE(0, fd);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	memcpy(p, "vm_fault_t", 11);
	ASSERT_EQ(0, msync(p, 4096, MS_SYNC));
	munmap(p, 4096);
	close(fd);
	ASSERT_EQ(0, umount(MNT));
	ASSERT_EQ(0, dax_mount());
	fd = open(MNT "/keep", O_RDONLY);
	ASSERT_LE(0, fd);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, memcmp(p, "vm_fault_t", 11));
	munmap(p, 4096);
	close(fd);
}

TEST_HARNESS_MAIN
