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
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kq.h"

#define EXIT_PORT	0xf4
#define EXIT_PASS	1	/* QEMU exit status 3 */
#define EXIT_FAIL	2	/* QEMU exit status 5 */

static char mode[32] = "normal";

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
			sscanf(p + strlen("kq.mode="), "%31[a-z]", mode);
	}
	fclose(f);
}

/* Run one test program with stdout and stderr on the console. */
static int run(const char *path)
{
	int status;
	pid_t pid;

	say("starting %s", path);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status)) {
		say("%s killed by signal %d", path, WTERMSIG(status));
		return -1;
	}
	say("%s exit %d", path, WEXITSTATUS(status));
	return WEXITSTATUS(status) ? -1 : 0;
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
	int failed = 0, ran = 0;

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

	failed = run_dir("/tests", &ran);
	if (!strcmp(mode, "fail"))
		failed += run_dir("/selftests", &ran);
	say("%d test programs ran, %d failed", ran, failed);
	finish(ran > 0 && failed == 0);
	return 0;
}
