#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "jobs.h"
#include "output.h"

/*
 * The buffer grows from FIRSTSZ to BUFSZ: a small output costs little.
 * It is a big array (err.h): its larger sizes are blocks of pages that
 * have been touched already, most often, not fresh ones.
 */
enum { FIRSTSZ = 4096, BUFSZ = 256 * 1024 };

struct fold_out {
	int fd;			/* -1: to memory, all of it kept */
	char *name;
	char *buf;
	size_t len, cap;
	int err;		/* errno of the first failure, 0 if none */
};

struct fold_out *
fold_out_new(int fd, const char *name)
{
	struct fold_out *o = fold_calloc(1, sizeof *o);

	o->fd = fd;
	o->name = fold_strdup(name);
	o->cap = FIRSTSZ;
	o->buf = fold_big_alloc(o->cap, 1);
	return o;
}

struct fold_out *
fold_out_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (fd < 0)
		return fold_seterr("%s: %s", path, strerror(errno)), NULL;
	return fold_out_new(fd, path);
}

FILE *
fold_tmpfile(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	size_t n;
	FILE *f;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	n = strlen(dir) + sizeof "/fold.XXXXXX";
	path = fold_malloc(n);
	snprintf(path, n, "%s/fold.XXXXXX", dir);
	if ((fd = mkostemp(path, O_CLOEXEC)) < 0) {
		fold_seterr("cannot create a temporary file in %s: %s", dir,
		    strerror(errno));
		free(path);
		return NULL;
	}
	/* unlinked at once: nothing is left behind, whatever ends the run */
	unlink(path);
	free(path);
	if (!(f = fdopen(fd, "w+"))) {
		fold_seterr("cannot create a temporary file in %s: %s", dir,
		    strerror(errno));
		close(fd);
	}
	return f;
}

/* Writes p[0..n) to o's descriptor, or keeps the first failure. */
static void
writeall(struct fold_out *o, const char *p, size_t n)
{
	while (n > 0 && !o->err) {
		ssize_t w = write(o->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->err = w < 0 ? errno : EIO;
		else
			p += w, n -= w;
	}
}

struct fold_out *
fold_out_mem(void)
{
	return fold_out_new(-1, "memory");
}

void
fold_out_append(struct fold_out *o, struct fold_out *src)
{
	fold_out_write(o, src->buf, src->len);
	/* to memory, it cannot fail */
	(void)fold_out_close(src);
}

struct outjobs {
	struct fold_out *o;
	struct fold_out **mem;		/* by task */
	void (*put)(void *, size_t, struct fold_out *);
	void *arg;
	int failed;			/* o failed: the rest is not made */
};

static void
outjobs_put(void *arg, size_t k)
{
	struct outjobs *j = arg;

	j->mem[k] = fold_out_mem();
	if (!__atomic_load_n(&j->failed, __ATOMIC_RELAXED))
		j->put(j->arg, k, j->mem[k]);
}

static void
outjobs_take(void *arg, size_t k)
{
	struct outjobs *j = arg;

	fold_out_append(j->o, j->mem[k]);
	j->mem[k] = NULL;
	if (fold_out_failed(j->o))
		__atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
}

void
fold_out_jobs(struct fold_out *o, size_t n, unsigned jobs,
    void (*put)(void *arg, size_t k, struct fold_out *mem), void *arg)
{
	struct outjobs j = { o, NULL, put, arg, 0 };

	j.mem = fold_calloc(n ? n : 1, sizeof *j.mem);
	fold_jobs_ordered(n, jobs, outjobs_put, outjobs_take, &j);
	free(j.mem);
}

static void
flush(struct fold_out *o)
{
	if (o->fd < 0)
		return;
	writeall(o, o->buf, o->len);
	o->len = 0;
}

void
fold_out_write(struct fold_out *o, const void *p, size_t n)
{
	size_t cap = o->cap;

	if (o->err)
		return;
	/* to memory it grows to hold all; to a file, to BUFSZ at most */
	while (o->len + n > cap && (cap < BUFSZ || o->fd < 0))
		cap *= 2;
	if (cap != o->cap)
		o->buf = fold_big_resize(o->buf, &o->cap, cap, 1);
	if (o->len + n > o->cap) {
		flush(o);
		/* large writes go straight through, not copied */
		if (n >= BUFSZ) {
			writeall(o, p, n);
			return;
		}
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

void
fold_out_puts(struct fold_out *o, const char *s)
{
	fold_out_write(o, s, strlen(s));
}

void
fold_out_putc(struct fold_out *o, int c)
{
	if (o->len == o->cap) {
		fold_out_write(o, &(char){ c }, 1);
		return;
	}
	o->buf[o->len++] = c;
}

void
fold_out_printf(struct fold_out *o, const char *fmt, ...)
{
	char small[512], *p = small;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof small) {
		p = fold_malloc(n + 1);
		va_start(ap, fmt);
		vsnprintf(p, n + 1, fmt, ap);
		va_end(ap);
	}
	fold_out_write(o, p, n);
	if (p != small)
		free(p);
}

static void
fold_out_u64(struct fold_out *o, uint64_t u)
{
	char tmp[24];
	int n = 24;

	do {
		tmp[--n] = '0' + u % 10;
		u /= 10;
	} while (u);
	fold_out_write(o, tmp + n, 24 - n);
}

void
fold_out_count(struct fold_out *o, const struct fold_count *c)
{
	char buf[FOLD_COUNT_BUFSZ];

	if (!c->frac)
		fold_out_u64(o, c->v.u);
	else
		fold_out_write(o, buf, fold_count_fmt(c, buf));
}

int
fold_out_failed(const struct fold_out *o)
{
	return o->err != 0;
}

int
fold_out_close(struct fold_out *o)
{
	int rc = 0;

	flush(o);
	if (o->fd >= 0 && close(o->fd) < 0 && !o->err)
		o->err = errno;
	if (o->err)
		rc = fold_seterr("%s: write error: %s", o->name,
		    strerror(o->err));
	fold_big_free(o->buf, o->cap, 1);
	free(o->name);
	if (rc < 0)
		errno = o->err;
	free(o);
	return rc;
}
