// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the boot-test guest: mount what the tests need, run every test
 * program in /tests in name order, and hand the verdict to QEMU through the
 * isa-debug-exit port (QEMU then exits with (value << 1) | 1).
 *
 * The kernel command line selects a self-test of the host-side verdict:
 *   kq.mode=crash  panic the kernel through lkdtm
 *   kq.mode=warn   provoke a WARN through lkdtm, then run the tests
 *   kq.mode=hang   never finish
 *   kq.mode=fail   also run /selftests/fail, a test that fails
 *   kq.mode=mm, kq.mode=mm-hang  only the mm selftests of kq.mm=, which
 *                  scripts/boot plants in /mm/list (a regression, a test
 *                  that fails on the base kernel too, a hang)
 *
 * Then the kernel's own mm selftests listed in /mm/list ("PROGRAM [ARGS]"
 * per line, written by scripts/boot from ci/mm-selftests-<track>.list), each
 * killed after MM_TIMEOUT seconds.  kq.only=mm runs nothing else (the rerun
 * on the base kernel), kq.mm=A,B only the listed lines whose program is A
 * or B.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kq.h"

#define EXIT_PORT	0xf4
#define EXIT_PASS	1	/* QEMU exit status 3 */
#define EXIT_FAIL	2	/* QEMU exit status 5 */

#define MM_LIST		"/mm/list"
#define MM_TIMEOUT	300	/* seconds one mm selftest program may take */
#define KSFT_SKIP	4

static char mode[32] = "normal";
static char only[16];
static char mm_pick[1024];

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("kq-init: ");
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

static int do_mount(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY) {
		say("mount %s failed: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void read_mode(void)
{
	char line[4096], *p;
	FILE *f = fopen("/proc/cmdline", "r");

	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		p = strstr(line, "kq.mode=");
		if (p)
			sscanf(p + strlen("kq.mode="), "%31[a-z-]", mode);
		p = strstr(line, "kq.only=");
		if (p)
			sscanf(p + strlen("kq.only="), "%15[a-z]", only);
		p = strstr(line, "kq.mm=");
		if (p)
			sscanf(p + strlen("kq.mm="), "%1023[A-Za-z0-9_,-]", mm_pick);
	}
	fclose(f);
}

static void on_alarm(int sig)
{
}

/*
 * Run argv with stdout and stderr on the console, for at most timeout
 * seconds (0: no limit); its exit status, or -1 when it was killed.
 * "starting NAME" and "NAME exit N" frame its output for the host, which
 * names its results after NAME.
 */
static int run_argv(char *const argv[], const char *name, unsigned int timeout)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int status;
	pid_t pid;

	say("starting %s", name);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	sigaction(SIGALRM, &sa, NULL);
	alarm(timeout);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
		say("%s timed out after %u s: killed", name, timeout);
		kill(pid, SIGKILL);
		alarm(0);
	}
	alarm(0);
	if (WIFSIGNALED(status)) {
		say("%s killed by signal %d", name, WTERMSIG(status));
		return -1;
	}
	say("%s exit %d", name, WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

static int run(const char *path)
{
	char *const argv[] = { (char *)path, NULL };

	return run_argv(argv, path, 0) ? -1 : 0;
}

/* Is the program of this list line among kq.mm= (or is there no kq.mm=)? */
static int picked(const char *prog)
{
	char list[sizeof(mm_pick) + 2], want[256];

	if (!mm_pick[0])
		return 1;
	snprintf(list, sizeof(list), ",%s,", mm_pick);
	snprintf(want, sizeof(want), ",%s,", prog);
	return !!strstr(list, want);
}

/* The mm selftests of /mm/list: exit 0 passes, KSFT_SKIP skips. */
static int run_mm(int *ran)
{
	char line[512], path[300], name[600], *argv[16], *p;
	int argc, rc, failed = 0;
	FILE *f = fopen(MM_LIST, "r");

	if (!f)
		return 0;
	/* hugetlb faults need huge pages in the pool, some a hugetlbfs file */
	kq_write("/proc/sys/vm/nr_hugepages", "64");
	/*
	 * uffd-unit-tests maps shmem at a fixed hint (1 GiB).  From 6.9 on,
	 * x86_64 starts the heap of a static program up to 1 GiB past it, and
	 * in some boots over that hint: the test then fails for a reason that
	 * is not the kernel's.  No heap randomization (stack, mmap and vDSO
	 * keep theirs); mm-planted/kq-mm-layout.c checks it holds.
	 */
	kq_write("/proc/sys/kernel/randomize_va_space", "1");
	do_mount("none", "/hugetlbfs", "hugetlbfs");
	if (chdir("/mm"))
		say("chdir /mm failed: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		argc = 0;
		for (p = strtok(line, " \t\n"); p && argc < 15; p = strtok(NULL, " \t\n"))
			argv[argc++] = p;
		if (!argc || !picked(argv[0]))
			continue;
		argv[argc] = NULL;
		snprintf(path, sizeof(path), "/mm/%s", argv[0]);
		argv[0] = path;
		snprintf(name, sizeof(name), "%s", path);
		for (int i = 1; i < argc; i++)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), " %s", argv[i]);
		rc = run_argv(argv, name, MM_TIMEOUT);
		if (rc && rc != KSFT_SKIP)
			failed++;
		(*ran)++;
	}
	fclose(f);
	return failed;
}

static int run_dir(const char *dir, int *ran)
{
	struct dirent **names;
	char path[512];
	int i, n, failed = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			if (run(path))
				failed++;
			(*ran)++;
		}
		free(names[i]);
	}
	free(names);
	return failed;
}

static void finish(int pass)
{
	sync();
	say("verdict %s", pass ? "PASS" : "FAIL");
	if (ioperm(EXIT_PORT, 1, 1) == 0)
		outb(pass ? EXIT_PASS : EXIT_FAIL, EXIT_PORT);
	/* no isa-debug-exit device: power off, the host sees no verdict */
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

int main(void)
{
	int failed = 0, mm_failed, ran = 0;

	do_mount("proc", "/proc", "proc");
	do_mount("sysfs", "/sys", "sysfs");
	do_mount("devtmpfs", "/dev", "devtmpfs");
	do_mount("debugfs", "/sys/kernel/debug", "debugfs");
	do_mount("tracefs", "/sys/kernel/tracing", "tracefs");
	mkdir("/mnt", 0755);
	read_mode();
	say("mode %s", mode);

	if (!strcmp(mode, "crash"))
		kq_write("/sys/kernel/debug/provoke-crash/DIRECT", "PANIC");
	if (!strcmp(mode, "warn"))
		kq_write("/sys/kernel/debug/provoke-crash/DIRECT", "WARNING");
	if (!strcmp(mode, "hang"))
		for (;;)
			pause();

	if (strcmp(only, "mm") && strncmp(mode, "mm", 2)) {
		failed = run_dir("/tests", &ran);
		if (!strcmp(mode, "fail"))
			failed += run_dir("/selftests", &ran);
	}
	/*
	 * The host judges the mm selftests against the base kernel: their
	 * failures do not decide this verdict.  The other self-tests of the
	 * verdict need none.
	 */
	if (!strcmp(mode, "normal") || !strncmp(mode, "mm", 2)) {
		mm_failed = run_mm(&ran);
		say("%d mm selftest programs did not pass (judged by the host)", mm_failed);
	}
	say("%d test programs ran, %d failed", ran, failed);
	finish(ran > 0 && failed == 0);
	return 0;
}
