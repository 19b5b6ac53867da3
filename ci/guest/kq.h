/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest tests: running a host tool, and reading the
 * fault results that trace events print.
 */
#ifndef KQ_GUEST_H
#define KQ_GUEST_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACING "/sys/kernel/tracing"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE	0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC		0x80000
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Run argv[0] with argv, output to the console; its exit status or -1. */
static inline int kq_run(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static inline int kq_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * Write one byte at p in a child process: the write fault happens there, so
 * a SIGBUS kills the child, not the test.  Returns the child's wait status
 * (-1 if it could not run); kq_sigbus() tells whether SIGBUS killed it.
 */
static inline int kq_child_write(unsigned char *p)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		p[0] = 'x';
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static inline int kq_sigbus(int status)
{
	return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

/* Enable the events of one system ("fs_dax") or one event ("f2fs/x"). */
static inline int kq_trace_enable(const char *event)
{
	char path[256];

	snprintf(path, sizeof(path), TRACING "/events/%s/enable", event);
	return kq_write(path, "1");
}

static inline void kq_trace_clear(void)
{
	kq_write(TRACING "/trace", "");
}

/*
 * Copy into out (NUL-separated, at most size bytes) the text after "key"
 * on every trace line of event, up to the next space or the end of the
 * line.  key NULL means the last word of the line.  Returns the number of
 * such lines.
 */
static inline int kq_trace_values(const char *event, const char *key,
				  char *out, size_t size)
{
	char line[1024], tag[128], *p, *end;
	size_t used = 0, len;
	int n = 0;
	FILE *f = fopen(TRACING "/trace", "r");

	if (!f)
		return -1;
	snprintf(tag, sizeof(tag), " %s: ", event);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strstr(line, tag))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (key) {
			p = strstr(line, key);
			if (!p)
				continue;
			p += strlen(key);
			end = p + strcspn(p, " ,");
		} else {
			p = strrchr(line, ' ');
			p = p ? p + 1 : line;
			end = p + strlen(p);
		}
		len = end - p;
		if (used + len + 1 < size) {
			memcpy(out + used, p, len);
			out[used + len] = '\0';
			used += len + 1;
		}
		n++;
	}
	if (used < size)
		out[used] = '\0';
	fclose(f);
	return n;
}

/* Does the "|"-separated flag list have flag? */
static inline int kq_has_flag(const char *flags, const char *flag)
{
	size_t len = strlen(flag);
	const char *p = flags;

	while ((p = strstr(p, flag))) {
		if ((p == flags || p[-1] == '|') && (p[len] == '|' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

/* Does any of the n NUL-separated values (kq_trace_values) have flag? */
static inline int kq_any_has_flag(const char *values, int n, const char *flag)
{
	for (; n > 0; n--, values += strlen(values) + 1)
		if (kq_has_flag(values, flag))
			return 1;
	return 0;
}

/*
 * The names VM_FAULT_RESULT_TRACE gives the bits of a fault result, for
 * events that print it as a number (6.1's f2fs_filemap_fault: "ret = %lx").
 */
static inline void kq_fault_names(unsigned long v, char *out, size_t size)
{
	static const struct { unsigned long bit; const char *name; } names[] = {
		{ 0x0001, "OOM" }, { 0x0002, "SIGBUS" }, { 0x0004, "MAJOR" },
		{ 0x0010, "HWPOISON" }, { 0x0020, "HWPOISON_LARGE" },
		{ 0x0040, "SIGSEGV" }, { 0x0100, "NOPAGE" }, { 0x0200, "LOCKED" },
		{ 0x0400, "RETRY" }, { 0x0800, "FALLBACK" }, { 0x1000, "DONE_COW" },
		{ 0x2000, "NEEDDSYNC" },
	};
	size_t i, used = 0;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if ((v & names[i].bit) && used + strlen(names[i].name) + 2 < size)
			used += snprintf(out + used, size - used, "%s%s",
					 used ? "|" : "", names[i].name);
}

/*
 * kq_trace_values() of an event's fault result, as flag names whether the
 * event prints them ("ret: MAJOR|LOCKED") or a number ("ret = 204").
 */
static inline int kq_trace_results(const char *event, char *out, size_t size)
{
	char raw[4096], *r;
	size_t used = 0;
	int n, i;

	n = kq_trace_values(event, "ret: ", out, size);
	if (n != 0)
		return n;
	n = kq_trace_values(event, "ret = ", raw, sizeof(raw));
	for (i = 0, r = raw; i < n; i++, r += strlen(r) + 1) {
		if (used + 64 >= size)
			break;
		kq_fault_names(strtoul(r, NULL, 16), out + used, size - used);
		used += strlen(out + used) + 1;
	}
	if (used < size)
		out[used] = '\0';
	return n;
}

#endif
