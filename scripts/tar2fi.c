// SPDX-License-Identifier: GPL-2.0
/*
 * tar2fi - turn a tar stream into one git fast-import commit.
 *
 * Reads an uncompressed tar archive (ustar, GNU long names, pax headers)
 * on stdin and writes a fast-import stream on stdout that creates one
 * commit holding exactly the archive's files and symlinks.  Nothing is
 * written to disk: the kernel tarball goes straight from xz into git's
 * pack, and blobs that the repository already has are not stored again.
 *
 * The stream starts with "feature done" and ends with "done", so a tar
 * stream cut short makes fast-import fail without updating any ref.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 512
#define COPY_CHUNK (1 << 20)

struct opts {
	const char *ref;
	const char *parent;
	const char *author;
	const char *committer;
	const char *message;
	int strip;
};

static unsigned long long offset;	/* bytes read so far, for errors */
static unsigned long files, links;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "tar2fi: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (at byte %llu of the tar stream)\n", offset);
	exit(1);
}

static void read_full(void *buf, size_t len)
{
	size_t got = fread(buf, 1, len, stdin);

	offset += got;
	if (got != len)
		die("%s", ferror(stdin) ? strerror(errno) :
		    "unexpected end of archive");
}

static void write_full(const void *buf, size_t len)
{
	if (fwrite(buf, 1, len, stdout) != len)
		die("write failed: %s", strerror(errno));
}

static unsigned long long parse_number(const unsigned char *p, int len)
{
	unsigned long long v = 0;
	int i;

	if (p[0] & 0x80) {		/* GNU base-256 */
		v = p[0] & 0x3f;
		for (i = 1; i < len; i++)
			v = (v << 8) | p[i];
		return v;
	}
	for (i = 0; i < len && p[i] == ' '; i++)
		;
	for (; i < len && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (p[i] - '0');
	return v;
}

static int checksum_ok(const unsigned char *h)
{
	unsigned long long want = parse_number(h + 148, 8);
	unsigned long sum = 0;
	int i;

	for (i = 0; i < BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : h[i];
	return sum == want;
}

static int is_zero_block(const unsigned char *h)
{
	int i;

	for (i = 0; i < BLOCK; i++)
		if (h[i])
			return 0;
	return 1;
}

static void skip_padding(unsigned long long size)
{
	unsigned char pad[BLOCK];
	size_t rest = (BLOCK - size % BLOCK) % BLOCK;

	if (rest)
		read_full(pad, rest);
}

/* Read a whole member (long name, pax header, symlink target) into memory. */
static char *read_member(unsigned long long size)
{
	char *buf;

	if (size > (16u << 20))
		die("%s", "metadata member larger than 16 MiB");
	buf = malloc(size + 1);
	if (!buf)
		die("%s", "out of memory");
	read_full(buf, size);
	buf[size] = '\0';
	skip_padding(size);
	return buf;
}

static void skip_member(unsigned long long size)
{
	static char buf[COPY_CHUNK];
	unsigned long long left = size;

	while (left) {
		size_t n = left > sizeof(buf) ? sizeof(buf) : left;

		read_full(buf, n);
		left -= n;
	}
	skip_padding(size);
}

/* Parse "LEN key=value\n" records; keep path, linkpath and size. */
static void parse_pax(char *rec, unsigned long long size, char **path,
		      char **linkpath, long long *psize)
{
	char *p = rec, *end = rec + size;

	while (p < end) {
		char *sp, *eq, *next;
		unsigned long len = strtoul(p, &sp, 10);

		if (sp == p || *sp != ' ' || len == 0 || p + len > end)
			die("%s", "malformed pax header");
		next = p + len;
		if (next[-1] != '\n')
			die("%s", "malformed pax record");
		next[-1] = '\0';
		eq = strchr(sp + 1, '=');
		if (!eq)
			die("%s", "pax record without '='");
		*eq = '\0';
		if (!strcmp(sp + 1, "path")) {
			free(*path);
			*path = strdup(eq + 1);
		} else if (!strcmp(sp + 1, "linkpath")) {
			free(*linkpath);
			*linkpath = strdup(eq + 1);
		} else if (!strcmp(sp + 1, "size")) {
			*psize = strtoll(eq + 1, NULL, 10);
		}
		p = next;
	}
}

/* Drop "./" and the first @strip components; NULL if nothing is left. */
static const char *strip_path(const char *path, int strip)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (strip-- > 0) {
		const char *slash = strchr(path, '/');

		if (!slash)
			return NULL;
		path = slash + 1;
	}
	return *path ? path : NULL;
}

/* fast-import wants C-style quoting for paths with LF, '"' or '\\'. */
static void put_path(const char *path)
{
	const char *p;

	if (!strpbrk(path, "\"\\\n") && path[0] != '"') {
		fputs(path, stdout);
		return;
	}
	putchar('"');
	for (p = path; *p; p++) {
		if (*p == '"' || *p == '\\')
			putchar('\\');
		if (*p == '\n') {
			fputs("\\n", stdout);
			continue;
		}
		putchar(*p);
	}
	putchar('"');
}

static void emit_blob(const char *mode, const char *path, const char *data,
		      unsigned long long size)
{
	static char buf[COPY_CHUNK];
	unsigned long long left = size;

	printf("M %s inline ", mode);
	put_path(path);
	printf("\ndata %llu\n", size);
	if (data) {
		write_full(data, size);
	} else {
		while (left) {
			size_t n = left > sizeof(buf) ? sizeof(buf) : left;

			read_full(buf, n);
			write_full(buf, n);
			left -= n;
		}
		skip_padding(size);
	}
	putchar('\n');
}

static void emit_header(const struct opts *o)
{
	printf("feature done\n");
	printf("commit %s\n", o->ref);
	printf("author %s\n", o->author);
	printf("committer %s\n", o->committer);
	printf("data %zu\n%s\n", strlen(o->message), o->message);
	if (o->parent && *o->parent)
		printf("from %s\n", o->parent);
	printf("deleteall\n");
}

static char *header_name(const unsigned char *h)
{
	char name[256 + 2];
	int n = 0;

	if (!memcmp(h + 257, "ustar", 5) && h[345]) {
		n = snprintf(name, sizeof(name), "%.155s/", (const char *)h + 345);
	}
	snprintf(name + n, sizeof(name) - n, "%.100s", (const char *)h);
	return strdup(name);
}

static void convert(const struct opts *o)
{
	unsigned char h[BLOCK];
	char *longname = NULL, *longlink = NULL;
	long long pax_size = -1;
	int zeros = 0;

	emit_header(o);
	for (;;) {
		unsigned long long size;
		const char *path;
		char *name, *target;
		char type;

		read_full(h, BLOCK);
		if (is_zero_block(h)) {
			if (++zeros == 2)
				break;
			continue;
		}
		zeros = 0;
		if (!checksum_ok(h))
			die("%s", "bad tar header checksum");
		size = parse_number(h + 124, 12);
		type = h[156];
		if (pax_size >= 0 && (type == '0' || type == '\0'))
			size = pax_size;

		switch (type) {
		case 'L':
			free(longname);
			longname = read_member(size);
			continue;
		case 'K':
			free(longlink);
			longlink = read_member(size);
			continue;
		case 'x': {
			char *rec = read_member(size);

			parse_pax(rec, size, &longname, &longlink, &pax_size);
			free(rec);
			continue;
		}
		case 'g':
			skip_member(size);
			continue;
		}

		name = longname ? longname : header_name(h);
		longname = NULL;
		target = longlink ? longlink : strndup((const char *)h + 157, 100);
		longlink = NULL;
		pax_size = -1;
		path = strip_path(name, o->strip);

		switch (type) {
		case '0':
		case '\0':
		case '7':
			if (path) {
				unsigned long long mode = parse_number(h + 100, 8);

				emit_blob(mode & 0111 ? "100755" : "100644",
					  path, NULL, size);
				files++;
			} else {
				skip_member(size);
			}
			break;
		case '2':
			if (path) {
				emit_blob("120000", path, target, strlen(target));
				links++;
			}
			skip_member(size);
			break;
		case '1': {
			const char *src = strip_path(target, o->strip);

			if (path && src) {
				printf("C ");
				put_path(src);
				putchar(' ');
				put_path(path);
				putchar('\n');
				files++;
			}
			skip_member(size);
			break;
		}
		case '5':
			skip_member(size);
			break;
		default: {
			char what[64];

			snprintf(what, sizeof(what), "unsupported tar member type '%c' for %%s",
				 type);
			die(what, name);
		}
		}
		free(name);
		free(target);
	}
	/*
	 * Drain the record padding after the end-of-archive marker, so the
	 * decompressor feeding us never dies of SIGPIPE.
	 */
	while (fread(h, 1, BLOCK, stdin) > 0)
		;
	printf("\ndone\n");
	if (fflush(stdout))
		die("write failed: %s", strerror(errno));
	fprintf(stderr, "tar2fi: %lu files, %lu symlinks\n", files, links);
}

static void usage(FILE *f, int status)
{
	fprintf(f, "usage: tar2fi --ref REF --author IDENT --committer IDENT --message MSG\n"
		   "              [--parent COMMIT] [--strip N] < archive.tar | git fast-import\n");
	exit(status);
}

int main(int argc, char **argv)
{
	struct opts o = { .strip = 0 };
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			usage(stdout, 0);
		if (!v)
			usage(stderr, 2);
		if (!strcmp(a, "--ref"))
			o.ref = v;
		else if (!strcmp(a, "--parent"))
			o.parent = v;
		else if (!strcmp(a, "--author"))
			o.author = v;
		else if (!strcmp(a, "--committer"))
			o.committer = v;
		else if (!strcmp(a, "--message"))
			o.message = v;
		else if (!strcmp(a, "--strip"))
			o.strip = atoi(v);
		else
			usage(stderr, 2);
		i++;
	}
	if (!o.ref || !o.author || !o.committer || !o.message)
		usage(stderr, 2);
	setvbuf(stdout, NULL, _IOFBF, COPY_CHUNK);
	convert(&o);
	return 0;
}
