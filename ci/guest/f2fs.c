// SPDX-License-Identifier: GPL-2.0
/*
 * f2fs fault paths on a host-made image (/dev/vda): read faults through
 * f2fs_filemap_fault, write faults through f2fs_vm_page_mkwrite, the
 * results the f2fs trace events print, and SIGBUS from page_mkwrite once
 * the filesystem is shut down.  MAP_SYNC must be refused: f2fs is not DAX.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kq.h"

#define F2FS_IOC_SHUTDOWN	_IOR('X', 125, unsigned int)
#define F2FS_GOING_DOWN_NOSYNC	0x2

#define DEV	"/dev/vda"
#define MNT	"/mnt/f2fs"
#define LEN	(16 * 4096)

static int setup_err = -1;

__attribute__((constructor)) static void f2fs_setup(void)
{
	mkdir(MNT, 0755);
	if (mount(DEV, MNT, "f2fs", 0, NULL) ||
	    kq_trace_enable("f2fs/f2fs_filemap_fault") ||
	    kq_trace_enable("f2fs/f2fs_vm_page_mkwrite"))
		return;
	setup_err = 0;
}

/* A file of LEN bytes of 'a', written with write(2) and synced. */
static int data_file(const char *name)
{
	char path[128], buf[LEN];
	int fd;

	snprintf(path, sizeof(path), MNT "/%s", name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	memset(buf, 'a', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf) || fsync(fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Does this kernel's page_mkwrite event record the fault result? */
static int mkwrite_traces_ret(void)
{
	char buf[4096] = "";
	int fd = open(TRACING "/events/f2fs/f2fs_vm_page_mkwrite/format", O_RDONLY);

	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return !!strstr(buf, " ret;");
}

TEST(read_fault_reads_the_page_in)
{
	char res[4096], *r;
	unsigned char *p;
	int fd, n, i;

	ASSERT_EQ(0, setup_err) TH_LOG("mount of " DEV " as f2fs failed");
	fd = data_file("read");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED));
	kq_trace_clear();
	p = mmap(NULL, LEN, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ('a', p[0]);
	EXPECT_EQ('a', p[LEN - 1]);
	munmap(p, LEN);
	close(fd);
	/*
	 * The page was dropped from the cache: the fault reads it in (MAJOR),
	 * and returns it locked or, having dropped mmap_lock for the I/O,
	 * asks for a retry (which fault-around may then satisfy).
	 */
	n = kq_trace_results("f2fs_filemap_fault", res, sizeof(res));
	ASSERT_LE(1, n);
	EXPECT_TRUE(kq_any_has_flag(res, n, "MAJOR")) TH_LOG("results: %s", res);
	for (i = 0, r = res; i < n; i++, r += strlen(r) + 1) {
		EXPECT_TRUE(kq_has_flag(r, "LOCKED") || kq_has_flag(r, "RETRY"))
			TH_LOG("result %s: neither LOCKED nor RETRY", r);
		EXPECT_FALSE(kq_has_flag(r, "SIGBUS"));
	}
}

TEST(write_fault_runs_page_mkwrite)
{
	char res[4096], buf[4096];
	unsigned char *p;
	int fd, n;

	ASSERT_EQ(0, setup_err);
	fd = data_file("write");
	ASSERT_LE(0, fd);
	kq_trace_clear();
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	/* read first: the page is mapped read-only, the write then goes
	 * through page_mkwrite
	 */
	EXPECT_EQ('a', p[4096]);
	memset(p + 4096, 'b', 4096);
	ASSERT_EQ(0, msync(p, LEN, MS_SYNC));
	munmap(p, LEN);
	ASSERT_EQ(4096, pread(fd, buf, 4096, 4096));
	EXPECT_EQ('b', buf[0]);
	EXPECT_EQ('b', buf[4095]);
	ASSERT_EQ(4096, pread(fd, buf, 4096, 0));
	EXPECT_EQ('a', buf[0]);
	close(fd);
	ASSERT_LE(1, kq_trace_values("f2fs_vm_page_mkwrite", NULL, res, sizeof(res)));
	if (mkwrite_traces_ret()) {
		n = kq_trace_values("f2fs_vm_page_mkwrite", "ret: ", res, sizeof(res));
		ASSERT_LE(1, n);
		EXPECT_TRUE(kq_any_has_flag(res, n, "LOCKED")) TH_LOG("results: %s", res);
	}
}

TEST(map_sync_is_refused)
{
	void *p;
	int fd;

	ASSERT_EQ(0, setup_err);
	fd = data_file("sync");
	ASSERT_LE(0, fd);
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);
}

/* Last: it shuts the filesystem down. */
TEST(write_fault_after_shutdown_is_sigbus)
{
	unsigned int how = F2FS_GOING_DOWN_NOSYNC;
	char res[4096];
	unsigned char *p;
	int fd, status, n;

	ASSERT_EQ(0, setup_err);
	fd = data_file("down");
	ASSERT_LE(0, fd);
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ('a', p[0]);
	ASSERT_EQ(0, ioctl(fd, F2FS_IOC_SHUTDOWN, &how));
	kq_trace_clear();
	status = kq_child_write(p);
	EXPECT_TRUE(kq_sigbus(status))
		TH_LOG("write fault on a shut down f2fs: status %#x, want SIGBUS", status);
	munmap(p, LEN);
	close(fd);
	if (mkwrite_traces_ret()) {
		n = kq_trace_values("f2fs_vm_page_mkwrite", "ret: ", res, sizeof(res));
		ASSERT_LE(1, n);
		EXPECT_TRUE(kq_any_has_flag(res, n, "SIGBUS")) TH_LOG("results: %s", res);
	}
}

TEST_HARNESS_MAIN
