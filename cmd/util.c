#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libfold/count.h"
#include "libfold/err.h"
#include "libfold/input.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/jobs.h"
#include "libfold/stacks.h"
#include "formats/folded.h"
#include "formats/split.h"
#include "cmd/opt.h"
#include "cmd/util.h"

const char *progname = "fold";
int cmd_failure = EXIT_ERR;

static void progress_erase(void);

/* The progress line: -1 never, 0 on a terminal, 1 always. */
static struct {
	int mode;
	int tty;		/* standard error is a terminal */
	int drawn;		/* a line is on the screen */
	double start, last;	/* seconds, monotonic */
	double delay;		/* seconds before the first line */
} prog;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
oom(void)
{
	static const char msg[] = ": out of memory\n";

	(void)!write(2, progname, strlen(progname));
	(void)!write(2, msg, sizeof msg - 1);
	_exit(cmd_failure);
}

/*
 * FOLD_PROGRESS_DELAY, seconds before the first progress line (0.5), as
 * git's GIT_PROGRESS_DELAY: a test sets 0 so that what it sees does not
 * depend on how fast a loaded machine starts the tool.
 */
static double
progress_delay(void)
{
	const char *s = getenv("FOLD_PROGRESS_DELAY");
	char *end;
	double d;

	if (!s || !*s)
		return 0.5;
	d = strtod(s, &end);
	return *end || !(d >= 0) ? 0.5 : d;
}

/* A reader that went away: end as cat and grep do, by SIGPIPE, silently. */
static noreturn void
sigpipe(void)
{
	progress_erase();
	signal(SIGPIPE, SIG_DFL);
	raise(SIGPIPE);
	_exit(EXIT_ERR);
}

/*
 * At exit: what stdio still holds for standard output (--help, usage) is
 * written, and a failure to write it is an error, not exit status 0.
 */
static void
close_stdout(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return;
	if (errno == EPIPE)
		sigpipe();
	cmd_warn("<stdout>: write error: %s", strerror(errno));
	_exit(cmd_failure);
}

void
cmd_init(const char *argv0)
{
	const char *p;
	int fd;

	if (argv0 && *argv0) {
		p = strrchr(argv0, '/');
		progname = p ? p + 1 : argv0;
	}
	/*
	 * Descriptors 0-2 closed at start would be handed to the first files
	 * opened, and the output written into a temporary input. They are
	 * opened on /dev/null the wrong way round (as gnulib's stdopen), so
	 * that using one still fails as it would have: "<stdout>: write
	 * error: Bad file descriptor".
	 */
	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd ? O_RDONLY : O_WRONLY) != fd)
			_exit(EXIT_ERR);
	fold_set_oom_handler(oom);
	/* a closed pipe is seen as EPIPE, so buffered output is handled */
	signal(SIGPIPE, SIG_IGN);
	atexit(close_stdout);
	prog.start = now();
	prog.delay = progress_delay();
	/* once, not for each input of a fleet (and before any thread) */
	prog.tty = isatty(2);
}

void
cmd_progress_opt(int opt)
{
	prog.mode = opt == CMD_OPT_PROGRESS ? 1 : -1;
}

static void
progress_erase(void)
{
	if (prog.drawn)
		fputs("\r\033[K", stderr);
	prog.drawn = 0;
}

/* 1536 -> "1.5 KiB" */
static void
bytes(char *buf, size_t n, double v)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (v >= 1024 && u < 4)
		v /= 1024, u++;
	snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

static void
progress(void *arg, uint64_t done, uint64_t size)
{
	const char *name = arg, *slash = strrchr(name, '/');
	char d[32], s[32], rate[32];
	double t = now(), el = t - prog.start;
	unsigned long sec;

	/* nothing for short runs, then a few times a second */
	if (el < prog.delay || t - prog.last < 0.25)
		return;
	prog.last = t;
	if (slash && slash[1])
		name = slash + 1;
	bytes(d, sizeof d, done);
	bytes(rate, sizeof rate, done / el);
	sec = (unsigned long)el;
	fprintf(stderr, "\r\033[K%s: %.40s: %s", progname, name, d);
	if (size > 0) {
		bytes(s, sizeof s, size);
		fprintf(stderr, " of %s (%.0f%%)", s,
		    done < size ? 100.0 * done / size : 100.0);
	}
	fprintf(stderr, ", %s/s, %lu:%02lu", rate, sec / 60, sec % 60);
	fflush(stderr);
	prog.drawn = 1;
}

/* --progress, or a terminal without --no-progress */
static int
progress_wanted(void)
{
	return prog.mode > 0 || (prog.mode == 0 && prog.tty);
}

void
cmd_progress_attach(void *arg, struct fold_in *in)
{
	if (progress_wanted())
		fold_in_set_progress(in, progress, (void *)fold_in_name(in));
}

static void
vwarn(const char *fmt, va_list ap)
{
	progress_erase();
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cmd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
cmd_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

void
cmd_say(void *arg, const char *msg)
{
	cmd_warn("%s", msg);
}

void
cmd_diag_init(struct fold_diag *d, int strict)
{
	struct fold_diag init = FOLD_DIAG_INIT;

	*d = init;
	d->report = cmd_say;
	d->strict = strict;
}

unsigned long long
cmd_diag_summary(const struct fold_diag *d, const char *one,
    const char *many)
{
	const char *what = d->count == 1 ? one : many;

	if (d->strict)		/* the first one was an error, reported as such */
		return d->count;
	if (d->count > d->limit)
		cmd_warn("%llu bad %s skipped (first %u shown)",
		    (unsigned long long)d->count, what, d->limit);
	else if (d->count)
		cmd_warn("%llu bad %s skipped", (unsigned long long)d->count,
		    what);
	return d->count;
}

int
cmd_each_input(char **files, int n,
    int (*read)(void *reader, struct fold_in *in, struct fold_diag *diag),
    void *reader, struct fold_diag *diag, int *stopped)
{
	int status = EXIT_OK, i, rc;

	*stopped = 0;
	for (i = 0; i < (n ? n : 1); i++) {
		struct fold_in *in = fold_in_open(n ? files[i] : NULL);
		if (!in) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
			continue;
		}
		cmd_progress_attach(NULL, in);
		rc = read(reader, in, diag);
		progress_erase();
		if (rc < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		if (fold_in_close(in) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		if (rc == -2) {
			*stopped = 1;
			break;
		}
	}
	return status;
}

/*
 * files[0..n), then those list names when it is set, in *all (to be freed
 * when it is not files). -1, reported, when the list names no file: an
 * empty list reads nothing, not standard input, as a fleet job that found
 * no file has failed.
 */
static int
listed(char **files, int n, const char *list, int nul, char ***all)
{
	*all = files;
	if (!list)
		return n;
	if ((n = cmd_files_from(files, n, list, nul, all)) > 0)
		return n;
	free(*all);
	cmd_warn("%s: no file named", list);
	return -1;
}

int
cmd_each_listed(char **files, int n, const char *list, int nul,
    int (*read)(void *reader, struct fold_in *in, struct fold_diag *diag),
    void *reader, struct fold_diag *diag, int *stopped)
{
	char **all;
	int status;

	*stopped = 0;
	if ((n = listed(files, n, list, nul, &all)) < 0) {
		*stopped = 1;
		return EXIT_ERR;
	}
	status = cmd_each_input(all, n, read, reader, diag, stopped);
	if (all != files)
		free(all);
	return status;
}

/*
 * The jobs asked for: cc->jobs, or for a run that asks for none
 * FOLD_TEST_JOBS (the tests); 0 when none is.
 */
static unsigned long long
jobs_asked(const struct cmd_common *cc)
{
	const char *v;

	if (!cc->jobs && (v = getenv("FOLD_TEST_JOBS")) != NULL)
		return strtoull(v, NULL, 10);
	return cc->jobs;
}

/*
 * jobs, or for 0 FOLD_JOBS_AUTO (one per processor it may run on), but
 * one when progress is shown (one thread draws it); at most
 * FOLD_JOBS_MAX.
 */
static unsigned
jobs_or_auto(unsigned long long jobs)
{
	if (jobs == 0)
		return progress_wanted() ? 1 : FOLD_JOBS_AUTO;
	return jobs > FOLD_JOBS_MAX ? FOLD_JOBS_MAX : (unsigned)jobs;
}

unsigned
cmd_jobs(const struct cmd_common *cc)
{
	return jobs_or_auto(jobs_asked(cc));
}

/* An input in flight: what prepare made of it, its messages. */
struct slot {
	struct fold_in *in;	/* open until its commit */
	void *prepared;
	void *w;		/* the worker of the thread that prepared it */
	char *fail;		/* the input could not be opened or read */
	int ready;
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t space;	/* a commit made room, or the end */
	char **files;
	int n, next, committed, window, quit;
	int committing;		/* a thread commits: the others leave it */
	int waiting;		/* threads waiting for space */
	int status;
	int *stopped;
	struct fold_diag *diag;
	struct slot *slots;
	const struct cmd_twostep *ts;
	void *reader;
};

static char *
errcopy(void)
{
	const char *e = fold_err();

	return fold_strdup(e);
}

/* Opens and prepares input i into its slot (not yet ready). */
static void
prepare_one(struct pool *p, struct slot *sl, int i, void *w, int progress)
{
	sl->w = w;
	if (!(sl->in = fold_in_open(p->files[i]))) {
		sl->fail = errcopy();
		return;
	}
	if (progress)
		cmd_progress_attach(NULL, sl->in);
	if (!(sl->prepared = p->ts->prepare(p->reader, w, sl->in)))
		sl->fail = errcopy();
}

struct worker {
	struct pool *p;
	void *w;
};

/*
 * Commits input i from its slot, with its messages, and closes it;
 * empties the slot. Sets *p->stopped when the commit ends the run.
 */
static int
commit_one(struct pool *p, struct slot *sl)
{
	int status = EXIT_OK, rc = 0;

	if (sl->fail) {
		cmd_warn("%s", sl->fail);
		status = EXIT_ERR;
	} else if ((rc = p->ts->commit(p->reader, sl->w, sl->prepared, sl->in,
	    p->diag)) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	progress_erase();
	if (sl->in && fold_in_close(sl->in) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	}
	if (rc == -2)
		*p->stopped = 1;
	free(sl->fail);
	memset(sl, 0, sizeof *sl);
	return status;
}

/* What was prepared and not committed (after a stop), dropped unsaid. */
static void
drop_one(struct pool *p, struct slot *sl)
{
	if (sl->prepared)
		p->ts->drop(p->reader, sl->prepared);
	if (sl->in)
		fold_in_close(sl->in);
	free(sl->fail);
	memset(sl, 0, sizeof *sl);
}

/*
 * Commits the inputs ready from the next one on, lock held (released
 * meanwhile), unless another thread commits: it goes on with them. The
 * thread that prepared an input most often commits it, while what it
 * decoded is in its processor's cache: a thread that commits what
 * another prepared reads it from the other's cache (pprofmerge spent a
 * tenth more time so on 2 processors).
 */
static void
commit_ready(struct pool *p)
{
	struct slot *sl;
	int status;

	while (!p->committing && !p->quit && p->committed < p->n &&
	    (sl = &p->slots[p->committed % p->window])->ready) {
		p->committing = 1;
		pthread_mutex_unlock(&p->lock);
		status = commit_one(p, sl);
		pthread_mutex_lock(&p->lock);
		p->status |= status;
		p->committing = 0;
		p->committed++;
		if (*p->stopped)
			p->quit = 1;
		if (p->waiting || p->quit)
			pthread_cond_broadcast(&p->space);
	}
}

/*
 * Each thread prepares the next input, at most window ahead of the
 * commits, and commits what is ready: whoever finds the next input to
 * commit ready commits it, so that none waits for another's commit.
 */
static void *
worker(void *arg)
{
	struct worker *wk = arg;
	struct pool *p = wk->p;
	struct slot *sl;
	int i;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		commit_ready(p);
		if (p->quit || p->next >= p->n)
			break;
		if (p->next >= p->committed + p->window) {
			p->waiting++;
			pthread_cond_wait(&p->space, &p->lock);
			p->waiting--;
			continue;
		}
		i = p->next++;
		sl = &p->slots[i % p->window];
		pthread_mutex_unlock(&p->lock);
		prepare_one(p, sl, i, wk->w, 0);
		pthread_mutex_lock(&p->lock);
		sl->ready = 1;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/*
 * A run of the default jobs reads its inputs one after another on this
 * thread, as one job would, until those read come to
 * FOLD_JOBS_AUTO_BYTES (jobs.h) on disk or the size of one cannot be
 * told (standard input, a pipe); the rest go to the threads. The sizes
 * are those the opening told (a stat of each beforehand cost a
 * microsecond a file, 2% of merging a hundred small profiles). Returns
 * the first input left.
 */
static int
alone_until_large(struct pool *p)
{
	struct slot sl = { 0 };
	uint64_t sum = 0;
	int64_t size;
	int i;

	for (i = 0; i < p->n && !*p->stopped &&
	    sum < FOLD_JOBS_AUTO_BYTES; i++) {
		prepare_one(p, &sl, i, NULL, 1);
		size = sl.in ? fold_in_filesize(sl.in) : 0;
		sum = size < 0 ? FOLD_JOBS_AUTO_BYTES : sum + (uint64_t)size;
		p->status |= commit_one(p, &sl);
	}
	return i;
}

static int
each_jobs(char **files, int n, unsigned long long jobs,
    const struct cmd_twostep *ts, void *reader, struct fold_diag *diag,
    int *stopped)
{
	char *none[] = { NULL };
	struct pool p = { .files = n ? files : none, .n = n ? n : 1,
	    .ts = ts, .reader = reader, .diag = diag, .stopped = stopped };
	struct worker *wk;
	pthread_t *th;
	unsigned t, nth = 0;
	int i;

	*stopped = 0;
	/* the progress of reading is drawn by the one thread that reads */
	if (jobs == 0 && !progress_wanted())
		p.next = p.committed = alone_until_large(&p);
	if (p.next == p.n || *stopped)
		return p.status ? EXIT_ERR : EXIT_OK;
	/* never more than the inputs left */
	jobs = fold_jobs_count(jobs_or_auto(jobs));
	if (jobs > (unsigned)(p.n - p.next))
		jobs = p.n - p.next;
	p.window = jobs > 1 ? 2 * jobs : 1;
	p.slots = fold_calloc(p.window, sizeof *p.slots);
	/*
	 * A worker for each thread, the last this thread's; none for one
	 * job: an input prepared and committed at once has nothing to keep
	 * for the commit.
	 */
	wk = fold_calloc(jobs, sizeof *wk);
	for (t = 0; t < jobs; t++) {
		wk[t].p = &p;
		wk[t].w = ts->worker && jobs > 1 ? ts->worker(reader) : NULL;
	}
	if (jobs == 1) {
		/* no thread: the same steps, and progress */
		for (i = p.next; i < p.n && !*stopped; i++) {
			prepare_one(&p, &p.slots[0], i, NULL, 1);
			p.status |= commit_one(&p, &p.slots[0]);
		}
		goto out;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.space, NULL);
	/* jobs threads in all, this one of them */
	th = fold_calloc(jobs, sizeof *th);
	for (t = 0; t + 1 < jobs; t++)
		if (fold_thread_start(&th[nth], worker, &wk[t]) == 0)
			nth++;
	worker(&wk[jobs - 1]);
	for (t = 0; t < nth; t++)
		pthread_join(th[t], NULL);
	free(th);
	pthread_cond_destroy(&p.space);
	pthread_mutex_destroy(&p.lock);
out:
	for (i = 0; i < p.window; i++)
		drop_one(&p, &p.slots[i]);
	for (t = 0; t < jobs; t++)
		if (wk[t].w)
			ts->worker_free(reader, wk[t].w);
	free(wk);
	free(p.slots);
	return p.status ? EXIT_ERR : EXIT_OK;
}

int
cmd_each_listed_jobs(char **files, int n, const struct cmd_common *cc,
    const struct cmd_twostep *ts, void *reader, struct fold_diag *diag,
    int *stopped)
{
	char **all;
	int status;

	*stopped = 0;
	if ((n = listed(files, n, cc->list, cc->nul, &all)) < 0) {
		*stopped = 1;
		return EXIT_ERR;
	}
	status = each_jobs(all, n, cc->jobs, ts, reader, diag, stopped);
	if (all != files)
		free(all);
	return status;
}

void
cmd_split_opt(const struct cmd_common *cc, struct split_opt *o)
{
	const char *v;

	memset(o, 0, sizeof *o);
	o->jobs = jobs_asked(cc);
	if ((v = getenv("FOLD_TEST_PIECE")) != NULL)
		o->piece = strtoull(v, NULL, 10);
}

unsigned
cmd_sort_jobs(const struct cmd_common *cc)
{
	struct split_opt o;

	cmd_split_opt(cc, &o);
	return split_jobs(&o);
}

struct folded_reader {
	struct fold_stacks *st;
	struct split_opt split;
};

static int
read_folded(void *arg, struct fold_in *in, struct fold_diag *diag)
{
	struct folded_reader *r = arg;
	int rc = folded_read(in, r->st, NULL, diag, &r->split);

	/* -2: counts of another unit were added, the sum means nothing */
	return rc < 0 ? (rc == -2 ? -2 : -1) : 0;
}

int
cmd_read_folded(char **files, int n, const struct cmd_common *cc,
    struct fold_diag *diag, struct fold_stacks **st)
{
	struct folded_reader r;
	int status, stopped;

	*st = fold_stacks_new(fold_intern_new(), 1);
	if (cc->unit)
		fold_stacks_force_unit(*st, cc->unit);
	r.st = *st;
	cmd_split_opt(cc, &r.split);
	status = cmd_each_listed(files, n, cc->list, cc->nul, read_folded, &r,
	    diag, &stopped);
	cmd_diag_summary(diag, "line", "lines");
	if (stopped) {
		cmd_folded_free(*st);
		*st = NULL;
	}
	return status;
}

int
cmd_stacks_found(uint64_t n)
{
	if (n > 0)
		return EXIT_OK;
	cmd_warn("no stacks found in the input");
	return EXIT_ERR;
}

void
cmd_folded_free(struct fold_stacks *st)
{
	struct fold_intern *frames;

	if (!st)
		return;
	frames = fold_stacks_frames(st);
	fold_stacks_free(st);
	fold_intern_free(frames);
}

/*
 * A file list is read as a stream, with bounds a list of real paths never
 * reaches: /dev/zero or a runaway pipe fails at once instead of filling
 * memory.
 */
#define LIST_MAX ((uint64_t)1 << 30)	/* bytes of a whole list */

struct namelist {
	struct fold_in *in;
	int nul, stdin_list;
	char *text;		/* the names, each ended by NUL */
	size_t len, cap;
	size_t namelen;		/* of the name being read */
	size_t count;		/* names ended */
	uint64_t lineno;
};

/* "LIST:LINE" for a list of lines, "LIST: name N" for NUL-ended names. */
static noreturn void
listerr(struct namelist *l, const char *what)
{
	if (l->nul)
		cmd_die(EXIT_ERR, "%s: name %llu: %s", fold_in_name(l->in),
		    (unsigned long long)l->count + 1, what);
	cmd_die(EXIT_ERR, "%s:%llu: %s", fold_in_name(l->in),
	    (unsigned long long)l->lineno, what);
}

static void
addbytes(struct namelist *l, const char *p, size_t n)
{
	char what[64];

	if (!l->nul && memchr(p, '\0', n))
		listerr(l, "a NUL byte in a file name (a list of NUL-ended "
		    "names needs -0)");
	if (l->namelen + n >= PATH_MAX) {
		snprintf(what, sizeof what, "a name longer than %d bytes",
		    PATH_MAX - 1);
		listerr(l, what);
	}
	if (l->len + n + 1 > l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		while (l->cap < l->len + n + 1)
			l->cap *= 2;
		l->text = fold_realloc(l->text, l->cap);
	}
	memcpy(l->text + l->len, p, n);
	l->len += n;
	l->namelen += n;
}

static void
endname(struct namelist *l)
{
	if (l->namelen == 0 && l->nul)
		/* as du --files0-from: find -print0 never writes one */
		listerr(l, "an empty name");
	if (l->namelen == 1 && l->stdin_list && l->text[l->len - 1] == '-')
		listerr(l, "-: standard input is the file list; it cannot be "
		    "an input too");
	if (l->namelen > 0) {	/* empty lines are skipped */
		l->text[l->len++] = '\0';
		l->count++;
	}
	l->namelen = 0;
	l->lineno++;
}

int
cmd_files_from(char **files, int n, const char *list, int nul,
    char ***names)
{
	struct namelist l = { .nul = nul, .lineno = 1 };
	const char *chunk, *p, *end, *e;
	char **v, *text;
	size_t clen, i;
	int r;

	if (!(l.in = fold_in_open(list)))
		cmd_die(EXIT_ERR, "%s", fold_err());
	fold_in_set_limit(l.in, LIST_MAX);
	l.stdin_list = strcmp(list, "-") == 0;
	for (i = 0; i < (size_t)n; i++)
		if (l.stdin_list && strcmp(files[i], "-") == 0)
			cmd_die(EXIT_USAGE, "-: standard input is the file list "
			    "(--files-from -); it cannot be an input too");
	while ((r = fold_in_chunk(l.in, &chunk, &clen)) > 0)
		for (p = chunk, end = chunk + clen; p < end; p = e + 1) {
			if (!(e = memchr(p, nul ? '\0' : '\n', end - p))) {
				addbytes(&l, p, end - p);
				break;
			}
			addbytes(&l, p, e - p);
			endname(&l);
		}
	if (r < 0)
		cmd_die(EXIT_ERR, "%s", fold_err());
	if (l.namelen > 0)	/* a last name without its separator */
		endname(&l);
	if (fold_in_close(l.in) < 0)
		cmd_die(EXIT_ERR, "%s", fold_err());
	if (l.count > (size_t)INT_MAX - n)
		cmd_die(EXIT_ERR, "%s: too many file names", list);
	/* the pointers and the names in one block */
	v = fold_malloc((n + l.count + 1) * sizeof *v + l.len + 1);
	text = (char *)(v + n + l.count + 1);
	if (l.len)
		memcpy(text, l.text, l.len);
	free(l.text);
	for (i = 0; i < (size_t)n; i++)
		v[i] = files[i];
	for (p = text, end = text + l.len; p < end; p += strlen(p) + 1)
		v[i++] = (char *)p;
	v[i] = NULL;
	*names = v;
	return (int)i;
}

struct fold_out *
cmd_stdout(void)
{
	return fold_out_new(1, "<stdout>");
}

int
cmd_close(struct fold_out *out, int status)
{
	progress_erase();
	if (fold_out_close(out) < 0) {
		if (errno == EPIPE)
			sigpipe();
		cmd_warn("%s", fold_err());
		return EXIT_ERR;
	}
	return status;
}

double
cmd_number(const char *opt, const char *s)
{
	struct fold_count c;

	if (fold_count_parse(s, strlen(s), &c) < 0)
		cmd_die(EXIT_USAGE, "%s: %s", opt, fold_err());
	return fold_count_val(&c);
}

unsigned long long
cmd_uint(const char *opt, const char *s)
{
	struct fold_count c;

	if (fold_count_parse(s, strlen(s), &c) < 0 || c.frac)
		cmd_die(EXIT_USAGE, "%s: not a non-negative integer: %s", opt, s);
	return c.v.u;
}

/* BYTES, or with a K, M, G or T suffix (powers of 1024). */
unsigned long long
cmd_size(const char *opt, const char *s)
{
	static const char suffixes[] = "KMGT";
	size_t n = strlen(s);
	const char *p = n ? strchr(suffixes, s[n - 1]) : NULL;
	unsigned long long v, mul = 1;
	char *num = fold_strndup(s, p && *p ? n - 1 : n);

	if (p && *p)
		mul = 1ULL << (10 * (p - suffixes + 1));
	v = cmd_uint(opt, num);
	free(num);
	if (v == 0 || v > ~0ULL / mul)
		cmd_die(EXIT_USAGE, "%s: out of range: %s", opt, s);
	return v * mul;
}
