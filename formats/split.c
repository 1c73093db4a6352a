#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfold/err.h"
#include "libfold/jobs.h"
#include "formats/split.h"

/*
 * A piece larger than this is not read on a thread: a file whose
 * boundaries are that far apart is read whole, as lines.
 */
#define PIECE_MAX ((uint64_t)256 << 20)

/*
 * The least the first piece holds: a reader that peeks at the start of
 * its input (jfr's 4 bytes of a recording's magic) must not pull in the
 * middle pieces, read and said before its own lines.
 */
#define HEAD 64

/*
 * The first and the last piece are read by r alone, the threads idle:
 * of pieces of more than EDGE, the first holds about FIRST (enough for
 * what r decides there, such as perf's kept event, hundreds of samples),
 * and the last about LAST, a few samples, when one ends so near the end,
 * else about EDGE.
 */
#define EDGE ((uint64_t)256 << 10)
#define FIRST ((uint64_t)64 << 10)
#define LAST ((uint64_t)32 << 10)

/*
 * How far split looks at a time for a boundary, and their overlap: first
 * WINDOW0, since a boundary is most often a sample away (perf script's
 * are a few hundred bytes), then twice as far each time up to WINDOW.
 */
enum { WINDOW0 = 4096, WINDOW = 64 * 1024, OVERLAP = 64 };

/* What a part made of one middle piece, until it is said. */
struct result {
	uint64_t lines;
	struct fold_held held;	/* its warnings, lines from its start */
	int rc;			/* the part's read of it */
};

struct split {
	const struct format *f;
	void *r;
	struct fold_stacks *st;
	struct fold_in *in;	/* the input, for its progress */
	struct fold_in *src;	/* what r reads: pieces 0, then the last */
	struct fold_diag *diag;
	const char *name;
	unsigned jobs;
	unsigned limit;		/* the warnings a piece keeps to say */
	int fd;
	uint64_t at;		/* where the input begins in fd */
	uint64_t *cut;		/* piece k is [cut[k], cut[k + 1]) */
	size_t npieces;
	size_t next;		/* the next piece r is handed */
	int middle;		/* the middle was tried */
	int stopped;		/* a warning under --strict stopped the run */
	char *buf;		/* the piece r reads */
	size_t bufcap;

	/* the middle pieces, on the threads */
	pthread_mutex_t lock;
	size_t claim, end;
	uint64_t done;		/* bytes of the pieces read */
	struct result *res;	/* by piece */
	void **parts;		/* by thread */
};

/* Reads n bytes of the input at off into buf; 0 or -1 with a message. */
static int
readat(struct split *s, char *buf, uint64_t off, size_t n)
{
	size_t got = 0;
	ssize_t k;

	while (got < n) {
		k = pread(s->fd, buf + got, n - got, (off_t)(s->at + off + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return fold_seterr("%s: read error: %s", s->name,
			    strerror(errno));
		if (k == 0)
			return fold_seterr("%s: file shrank while read",
			    s->name);
		got += k;
	}
	return 0;
}

/*
 * The first boundary at or after c (as the format's split tells, the
 * byte before c looked at too), or size when there is none.
 */
static uint64_t
boundary(struct split *s, uint64_t c, uint64_t size, char *win)
{
	uint64_t pos = c - 1;
	size_t n, off, w = WINDOW0;

	for (;;) {
		n = size - pos < w ? size - pos : w;
		if (readat(s, win, pos, n) < 0)
			return size;
		if ((off = s->f->split(win, n)) < n)
			return pos + off;
		if (pos + n >= size)
			return size;
		pos += n - OVERLAP;
		w = w < WINDOW / 2 ? 2 * w : WINDOW;
	}
}

/*
 * The pieces of an input of size bytes; 0 when it is to be read whole.
 * The last pieces for the threads, the last jobs pieces' worth, are a
 * quarter of the size: the thread that takes the last one finishes
 * about when the others do.
 */
static int
cut(struct split *s, uint64_t size, uint64_t piece)
{
	uint64_t c, b, step = piece, tail = (uint64_t)s->jobs * piece;
	size_t cap = 0, k;
	char *win = fold_malloc(WINDOW);

	s->cut = fold_grow(s->cut, &cap, 1, sizeof *s->cut);
	s->cut[s->npieces++] = 0;
	c = piece > EDGE ? FIRST : piece;
	for (c = c < HEAD ? HEAD : c; c < size; c = (b / step + 1) * step) {
		if ((b = boundary(s, c, size, win)) >= size)
			break;
		s->cut = fold_grow(s->cut, &cap, s->npieces + 2,
		    sizeof *s->cut);
		s->cut[s->npieces++] = b;
		if (piece > EDGE && size - b < tail)
			step = piece / 4;
	}
	/* a last piece of about LAST, or EDGE: cut at a boundary so near */
	c = s->cut[s->npieces - 1];
	if (piece > EDGE && s->npieces > 1 && ((size - c > 2 * LAST &&
	    (b = boundary(s, size - LAST, size, win)) < size) ||
	    (size - c > 2 * EDGE &&
	    (b = boundary(s, size - EDGE, size, win)) < size)))
		s->cut[s->npieces++] = b;
	free(win);
	s->cut = fold_grow(s->cut, &cap, s->npieces + 1, sizeof *s->cut);
	s->cut[s->npieces] = size;
	for (k = 1; k + 1 < s->npieces; k++)
		if (s->cut[k + 1] - s->cut[k] > PIECE_MAX)
			return 0;
	/* a first piece, a last, and a middle for the threads */
	return s->npieces >= 3;
}

/* Thread t's reading of middle pieces, one after another. */
static void
work(struct split *s, unsigned t)
{
	struct fold_diag d;
	struct result *res;
	struct fold_in *in;
	uint64_t done;
	size_t k = SIZE_MAX;

	for (;;) {
		pthread_mutex_lock(&s->lock);
		if (k != SIZE_MAX)
			s->done += s->cut[k + 1] - s->cut[k];
		done = s->done;
		k = s->claim < s->end ? s->claim++ : SIZE_MAX;
		pthread_mutex_unlock(&s->lock);
		/* the progress line is drawn by this thread alone */
		if (t == 0)
			fold_in_progress(s->in, done);
		if (k == SIZE_MAX)
			break;
		res = &s->res[k];
		fold_hold(&d, &res->held, s->limit, 0);
		in = fold_in_range(s->fd, s->at + s->cut[k],
		    s->cut[k + 1] - s->cut[k], s->name);
		fold_in_set_origin(in, s->cut[k]);
		res->rc = s->f->read(s->parts[t], in, &d);
		res->lines = fold_in_lineno(in);
		fold_in_close(in);
	}
}

struct thread {
	struct split *s;
	unsigned t;
};

static void *
thread(void *arg)
{
	struct thread *th = arg;

	work(th->s, th->t);
	return NULL;
}

static void
release(struct split *s, size_t a, size_t b, struct fold_stacks **pst,
    unsigned nparts)
{
	size_t k;
	unsigned t;

	for (k = a; k < b; k++)
		fold_held_free(&s->res[k].held);
	free(s->res);
	s->res = NULL;
	for (t = 0; t < nparts; t++) {
		struct fold_intern *fr = fold_stacks_frames(pst[t]);
		if (s->parts[t])
			s->f->close(s->parts[t]);
		fold_stacks_free(pst[t]);
		if (t > 0)
			fold_intern_free(fr);
	}
	free(s->parts);
	s->parts = NULL;
}

/*
 * The counts of the tables st[0..n) and of s->st are integers whose
 * total fits: then merging them gives what r reading the lines in order
 * gives, no sum overflowing nor rounded otherwise.
 */
static int
fits(struct split *s, struct fold_stacks **st, unsigned n)
{
	uint64_t sum = 0, t;
	unsigned i;

	for (i = 0; i <= n; i++) {
		if (fold_stacks_sum(i < n ? st[i] : s->st, &t) < 0 ||
		    t > UINT64_MAX - sum)
			return 0;
		sum += t;
	}
	return 1;
}

/*
 * Reads the middle pieces [a, b) on the threads, and has r take them.
 * Returns 0; 1 when r is to read them itself; -1 with a message when a
 * warning stopped the run (--strict).
 */
static int
middle(struct split *s, size_t a, size_t b)
{
	struct fold_stacks **pst;
	struct thread *th;
	pthread_t *tid;
	unsigned n = s->jobs, t, started = 0;
	uint64_t line;
	size_t k;
	int rc = 0;

	if (n > b - a)
		n = (unsigned)(b - a);
	pst = fold_calloc(n, sizeof *pst);
	s->parts = fold_calloc(n, sizeof *s->parts);
	for (t = 0; t < n; t++) {
		/*
		 * This thread's part interns its frames in the reader's table
		 * of frames, which nothing else touches meanwhile: they need
		 * not be interned again when its table is merged.
		 */
		pst[t] = fold_stacks_new(t == 0 ? fold_stacks_frames(s->st) :
		    fold_intern_copy(fold_stacks_frames(s->st)),
		    fold_stacks_ncols(s->st));
		if (!(s->parts[t] = s->f->part(s->r, pst[t])))
			rc = 1;
	}
	s->res = fold_calloc(b, sizeof *s->res);
	if (rc) {
		release(s, a, b, pst, n);
		free(pst);
		return 1;
	}
	s->claim = a;
	s->end = b;
	s->done = s->cut[a];
	pthread_mutex_init(&s->lock, NULL);
	tid = fold_calloc(n, sizeof *tid);
	th = fold_calloc(n, sizeof *th);
	for (t = 1; t < n; t++) {
		th[t] = (struct thread){ s, t };
		if (fold_thread_start(&tid[t], thread, &th[t]) != 0)
			break;
		started++;
	}
	work(s, 0);
	for (t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&s->lock);
	free(tid);
	free(th);
	/* a part that failed, sums that might not fit or depend on the
	   order of their terms: r reads them */
	for (k = a; k < b && rc == 0; k++)
		if (s->res[k].rc < 0)
			rc = 1;
	if (rc == 0 && !fits(s, pst, n))
		rc = 1;
	if (rc == 0 && s->f->join(s->r, s->parts, n) != 0)
		rc = 1;
	if (rc) {
		release(s, a, b, pst, n);
		free(pst);
		return 1;
	}
	if (fold_stacks_take_parts(s->st, pst, n, s->jobs) < 0)
		abort();	/* fits() said it could not happen */
	/* their warnings, in order, their lines counted from the start */
	line = fold_in_lineno(s->src);
	for (k = a; k < b && rc == 0; k++) {
		if (fold_held_say(&s->res[k].held, s->diag, line, NULL,
		    NULL) < 0)
			rc = -1;
		line += s->res[k].lines;
	}
	fold_in_set_lineno(s->src, line);
	release(s, a, b, pst, n);
	free(pst);
	if (rc < 0)
		s->stopped = 1;
	return rc;
}

/* The next piece r reads (fold_in_source). */
static int
next(void *arg, const char **buf, size_t *len)
{
	struct split *s = arg;
	size_t k, n;
	int rc;

	if (s->next == 1 && !s->middle) {
		s->middle = 1;
		if ((rc = middle(s, 1, s->npieces - 1)) < 0)
			return -1;
		if (rc == 0)
			s->next = s->npieces - 1;
	}
	if (s->next >= s->npieces)
		return 0;
	k = s->next++;
	n = s->cut[k + 1] - s->cut[k];
	s->buf = fold_big_grow(s->buf, &s->bufcap, n + 1, 1);
	if (readat(s, s->buf, s->cut[k], n) < 0)
		return -1;
	*buf = s->buf;
	*len = n;
	return 1;
}

/* 1 when in is of the binary form the text format f reads too (JFR). */
static int
binary(const struct format *f, struct fold_in *in)
{
	const char *head;
	size_t n;

	return f->id->binary && fold_in_peek(in, 64, &head, &n) == 0 &&
	    f->id->binary(head, n);
}

unsigned
split_jobs(const struct split_opt *o)
{
	return o->jobs > FOLD_JOBS_MAX ? FOLD_JOBS_MAX : (unsigned)o->jobs;
}

/*
 * The threads split_read reads in on, 1 when it reads it whole: the
 * processors are counted only for an input that would be split.
 */
static unsigned
jobs_for(const struct format *f, struct fold_in *in, const struct split_opt *o,
    int *fd, uint64_t *at, uint64_t *size)
{
	if (!f->split || o->jobs == 1 || !fold_in_file(in, fd, at, size) ||
	    (o->jobs == 0 && (*size < FOLD_JOBS_AUTO_BYTES ||
	    !f->split_default)) ||
	    binary(f, in))
		return 1;
	return fold_jobs_count(split_jobs(o));
}

int
split_wanted(const struct format *f, struct fold_in *in,
    const struct split_opt *o)
{
	uint64_t at, size;
	int fd;

	return jobs_for(f, in, o, &fd, &at, &size) > 1 &&
	    size >= FOLD_JOBS_AUTO_BYTES;
}

int
split_read(const struct format *f, void *r, struct fold_stacks *st,
    struct fold_in *in, struct fold_diag *diag, const struct split_opt *o)
{
	struct split s = { .f = f, .r = r, .st = st, .in = in, .diag = diag };
	uint64_t size;
	int rc;

	if ((s.jobs = jobs_for(f, in, o, &s.fd, &s.at, &size)) <= 1)
		return f->read(r, in, diag);
	s.name = fold_in_name(in);
	/* one at least: under --strict, the first one stops the run */
	s.limit = diag->limit ? diag->limit : 1;
	if (!cut(&s, size, o->piece ? o->piece : SPLIT_PIECE)) {
		free(s.cut);
		return f->read(r, in, diag);
	}
	s.src = fold_in_source(s.name, next, &s);
	rc = f->read(r, s.src, diag);
	if (s.stopped)
		rc = -2;
	fold_in_set_lineno(in, fold_in_lineno(s.src));
	fold_in_close(s.src);
	fold_big_free(s.buf, s.bufcap, 1);
	free(s.cut);
	return rc;
}
