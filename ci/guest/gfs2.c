// SPDX-License-Identifier: GPL-2.0
/*
 * gfs2 (lock_nolock, host-made image on /dev/vdb) fault paths: read faults,
 * write faults through gfs2_page_mkwrite, and SIGBUS from page_mkwrite
 * when the block a write fault needs cannot be allocated (full filesystem).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kq.h"

#define DEV	"/dev/vdb"
#define MNT	"/mnt/gfs2"
#define LEN	(16 * 4096)

static int setup_err = -1;

__attribute__((constructor)) static void gfs2_setup(void)
{
	mkdir(MNT, 0755);
	if (mount(DEV, MNT, "gfs2", 0, NULL))
		return;
	setup_err = 0;
}

static int open_new(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), MNT "/%s", name);
	return open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
}

TEST(read_and_write_faults)
{
	char buf[LEN];
	unsigned char *p;
	int fd;

	ASSERT_EQ(0, setup_err) TH_LOG("mount of " DEV " as gfs2 failed");
	fd = open_new("rw");
	ASSERT_LE(0, fd);
	memset(buf, 'a', sizeof(buf));
	ASSERT_EQ(LEN, write(fd, buf, LEN));
	ASSERT_EQ(0, fsync(fd));
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ('a', p[0]);
	EXPECT_EQ('a', p[LEN - 1]);
	/* mapped read-only by the read: this write goes through page_mkwrite */
	memset(p + 8192, 'b', 4096);
	ASSERT_EQ(0, msync(p, LEN, MS_SYNC));
	munmap(p, LEN);
	ASSERT_EQ(4096, pread(fd, buf, 4096, 8192));
	EXPECT_EQ('b', buf[0]);
	EXPECT_EQ('b', buf[4095]);
	close(fd);
}

TEST(write_fault_into_hole_allocates)
{
	char buf[4096];
	unsigned char *p;
	struct stat st;
	int fd;

	ASSERT_EQ(0, setup_err);
	fd = open_new("hole");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, LEN));
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	p[3 * 4096] = 'c';
	ASSERT_EQ(0, msync(p, LEN, MS_SYNC));
	munmap(p, LEN);
	ASSERT_EQ(4096, pread(fd, buf, 4096, 3 * 4096));
	EXPECT_EQ('c', buf[0]);
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_LT(0, st.st_blocks);
	close(fd);
}

/* Last: it fills the filesystem. */
TEST(write_fault_on_full_fs_is_sigbus)
{
	static char chunk[1 << 16];
	unsigned char *p;
	off_t off = 0;
	size_t step;
	int fd, fill, status;

	ASSERT_EQ(0, setup_err);
	fd = open_new("sparse");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, LEN));
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	/* fill every block: fallocate big, then small, then write(2) */
	fill = open_new("fill");
	ASSERT_LE(0, fill);
	for (step = 1 << 22; step >= 4096; step >>= 2)
		while (!fallocate(fill, 0, off, step))
			off += step;
	memset(chunk, 'f', sizeof(chunk));
	while (write(fill, chunk, 4096) == 4096)
		;
	fsync(fill);
	TH_LOG("filled %lld MiB", (long long)off >> 20);
	/* reading the hole maps the zero page; writing must allocate */
	EXPECT_EQ(0, p[0]);
	status = kq_child_write(p);
	EXPECT_TRUE(kq_sigbus(status))
		TH_LOG("write fault into a hole of a full gfs2: status %#x, want SIGBUS", status);
	munmap(p, LEN);
	close(fill);
	close(fd);
}

TEST_HARNESS_MAIN
