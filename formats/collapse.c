#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/unit.h"
#include "formats/collapse.h"
#include "formats/bcc.h"
#include "formats/chrome.h"
#include "formats/firefox.h"
#include "formats/folded.h"
#include "formats/otlp.h"
#include "formats/dtrace.h"
#include "formats/ghcprof.h"
#include "formats/jfr.h"
#include "formats/magic.h"
#include "formats/perf.h"
#include "formats/pprof.h"
#include "formats/sample.h"
#include "formats/speedscope.h"
#include "formats/svgread.h"
#include "formats/trace.h"
#include "formats/vsprof.h"
#include "formats/vtune.h"

/* The state of the checks of collapse.h on one input. */
struct collapse_check {
	uint64_t bad;		/* diag's count when the input began */
	int counted;		/* records are what the reader recognised
				   (1, the default), not the stacks kept */
	int empty;		/* the input has no byte */
	/*
	 * A copy of the input's head, for the formats that claim it, which
	 * only a message of collapse_check_end names: running every
	 * detector on every input would cost more than reading a small one.
	 */
	char *head;
	size_t nhead;
	const struct format *f;	/* what the input is read as */
};

/*
 * An input of a format whose join takes whole inputs (format.h), read on
 * a worker's thread by a reader of its own into a table of its own.
 */
struct whole {
	void *r;
	struct fold_stacks *st;	/* its frames its worker's (see wframes) */
	struct fold_held held;	/* its warnings */
	int rc;
	struct wframes *wf;
	/* the frames it added to wf->frames: names in wf's arena */
	struct wname {
		const char *s;
		size_t len;
	} *names;
	size_t nnames;
};

/*
 * An input, its format told and its head checked, and what the format's
 * prepare found in it on another thread, or what a reader of its own
 * did (both NULL: it is read at its commit).
 */
struct collapse_input {
	struct collapse_check check;
	void *prepared;
	struct whole *whole;
};

/*
 * The reader of each format used, and the checks of collapse.h over the
 * run.
 */
struct collapse {
	const struct format *const *fmts;	/* the run's formats */
	size_t nfmts;
	const struct format *forced;
	struct fold_stacks *st;
	fold_say_fn *say;
	void *arg;
	void **opts;		/* by format: its options, copied */
	void **readers;		/* by format */
	char *used;		/* by format: an input was read */
	int found;		/* an input of the run gave a record */
	char **empties;		/* the names of the empty inputs */
	size_t nempties;
	struct split_opt split;
	/*
	 * The sum of every count of st when it had sumadds adds, and
	 * whether there is one (no fraction, no overflow): whole inputs'
	 * tables are added to st when that sum and theirs fit.
	 */
	uint64_t sum, sumadds;
	int sumok;
};

/*
 * The frames of the whole inputs of one format read on one thread: the
 * table their readers intern in, which lasts from one input to the next
 * (with what a reader keeps by it, such as perf's cache of frame lines,
 * still good), and what its ids are in the run's table. The map grows
 * at each input's commit, on whichever thread commits, by the names
 * the input added, handed over: the table itself is the thread's, which
 * goes on reading meanwhile.
 */
struct wframes {
	struct fold_intern *frames;
	size_t handed;		/* ids below it are some input's names */
	uint32_t *map;		/* to the run's ids */
	size_t nmap, capmap;
};

/*
 * What a thread keeps from one input to the next: by format, its worker,
 * and its frames.
 */
struct collapse_worker {
	void **w;
	struct wframes *wf;
};

/* Every format as told from its first bytes, for the messages that say
   what an input looks like. */
static const struct format_id *const ids[] = {
#define FORMAT(x) &x##_id,
#include "formats/formatlist.h"
#undef FORMAT
};

const struct format *
collapse_find(const struct format *const *fmts, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(fmts[i]->id->name, name) == 0)
			return fmts[i];
	return NULL;
}

size_t
collapse_index(const struct format *const *fmts, size_t n,
    const struct format *f)
{
	size_t i;

	for (i = 0; i < n && fmts[i] != f; i++)
		;
	return i;
}

/* Enough to see several samples of any format, and no more than a peek. */
enum { HEAD = 64 * 1024 };

/*
 * Whether head[0..n) is binary data rather than text: a NUL byte, or more
 * than one byte in 32 that is neither printable ASCII, a blank, ESC (a
 * colored line) nor part of valid UTF-8. Writes what it is to why. (The
 * kinds fold_magic names are looked for first, by the callers.)
 */
static int
isbinary(const char *head, size_t n, char *why, size_t whysz)
{
	const uint64_t ones = 0x0101010101010101, highs = ones << 7;
	const unsigned char *s = (const unsigned char *)head;
	const char *nul = memchr(head, '\0', n);
	size_t i, k, bad = 0;
	uint64_t w, del;
	uint32_t cp;

	if (!nul) {
		for (i = 0; i < n; i += k) {
			/*
			 * Eight bytes at a time while none is past 0x7e or
			 * below 0x20 (the test may flag a byte after one that
			 * is, never miss one): the head of every input of a
			 * fleet is looked at.
			 */
			if (n - i >= 8) {
				memcpy(&w, s + i, 8);
				del = w ^ (0x7f * ones);
				if (!((w | ((w - 0x20 * ones) & ~w) |
				    ((del - ones) & ~del)) & highs)) {
					k = 8;
					continue;
				}
			}
			k = 1;
			if ((s[i] >= 0x20 && s[i] < 0x7f) ||
			    (s[i] >= '\t' && s[i] <= '\r') || s[i] == 033)
				continue;
			if (s[i] >= 0x80 && (k = fold_utf8(s + i, n - i, &cp)) == 0) {
				/* a character cut by the end of the head is text */
				if (s[i] >= 0xc2 && s[i] <= 0xf4 && n - i <
				    (s[i] < 0xe0 ? 2u : s[i] < 0xf0 ? 3u : 4u)) {
					k = n - i;
				} else {
					k = 1;
					bad++;
				}
			} else if (s[i] < 0x80) {	/* a control byte */
				bad++;
			}
		}
		if (bad * 32 <= n)
			return 0;
	}
	if (nul)
		snprintf(why, whysz, "a NUL byte at byte %zu",
		    (size_t)(nul - head));
	else
		snprintf(why, whysz, "%zu of its first %zu bytes are not text",
		    bad, n);
	return 1;
}

/*
 * The formats that claim head[0..n), but not: the surest, or NULL when
 * none or two claim it equally. folded, which claims any text of words
 * and numbers, only when nothing else does.
 */
static const struct format_id *
claims(const char *head, size_t n, int eof,
    const struct format_id *not, const struct format_id **two)
{
	const struct format_id *best = NULL;
	size_t i;
	int k, bestk = 0;

	*two = NULL;
	for (i = 0; i < sizeof ids / sizeof *ids; i++) {
		if (ids[i] == not || (k = ids[i]->detect(head, n, eof)) == 0)
			continue;
		if (strcmp(ids[i]->name, "folded") == 0 && best)
			continue;
		if (k > bestk || (best && strcmp(best->name, "folded") == 0)) {
			best = ids[i];
			bestk = k;
			*two = NULL;
		} else if (k == bestk) {
			*two = ids[i];
		}
	}
	return best;
}

int
collapse_detect(const struct format *const *fmts, size_t nfmts,
    struct fold_in *in, const struct format **f)
{
	const char *head;
	size_t n, i, nsure = 0, nmaybe = 0;
	const struct format *sure[2], *maybe[2];
	const char *what;
	char tried[512], why[128] = "";
	int eof, k;

	*f = NULL;
	if (fold_in_peek(in, HEAD, &head, &n) < 0)
		return -1;
	if (n == 0)
		return 0;
	for (i = 0; i < nfmts; i++)
		if (fmts[i]->id->binary && fmts[i]->id->binary(head, n)) {
			*f = fmts[i];
			return 0;
		}
	if ((what = fold_magic(head, n)) != NULL)
		return fold_seterr("%s: binary data (%s), not a format this "
		    "reads", fold_in_name(in), what);
	if ((what = fold_lookalike(head, n)) != NULL)
		return fold_seterr("%s: not a format this reads: it is %s",
		    fold_in_name(in), what);
	eof = n < HEAD;
	for (i = 0; i < nfmts; i++) {
		k = fmts[i]->id->detect(head, n, eof);
		if (k == FOLD_DETECT_SURE && nsure++ < 2)
			sure[nsure - 1] = fmts[i];
		else if (k == FOLD_DETECT_MAYBE && nmaybe++ < 2)
			maybe[nmaybe - 1] = fmts[i];
	}
	if (nsure == 1 || (nsure == 0 && nmaybe == 1)) {
		*f = nsure ? sure[0] : maybe[0];
		return 0;
	}
	if (nsure > 1 || nmaybe > 1) {
		const struct format **two = nsure ? sure : maybe;
		return fold_seterr("%s: looks like both %s and %s input "
		    "(choose with --format)", fold_in_name(in),
		    two[0]->id->name, two[1]->id->name);
	}
	if (isbinary(head, n, why, sizeof why))
		return fold_seterr("%s: binary data (%s), not a format this "
		    "reads", fold_in_name(in), why);
	tried[0] = '\0';
	for (i = 0; i < nfmts; i++)
		snprintf(tried + strlen(tried), sizeof tried - strlen(tried),
		    "%s%s", i ? ", " : "", fmts[i]->id->name);
	return fold_seterr("%s: not a format this reads (tried %s)",
	    fold_in_name(in), tried);
}

/*
 * The checks of an input's head, before it is read as f; its diag count
 * (bad) is taken when it is read.
 */
static int
collapse_check_begin(struct collapse_check *ck, const struct format *f,
    struct fold_in *in)
{
	const char *head, *what;
	char why[128] = "";
	size_t n;
	int bin;

	ck->counted = 1;
	ck->f = f;
	/* a fault early in the input: the reader keeps what came before it
	   and fails there */
	if (fold_in_peek(in, HEAD, &head, &n) < 0)
		return 0;
	if (n == 0) {
		ck->empty = 1;
		return 0;
	}
	/* a binary form the format's reader reads is no binary data */
	bin = f->id->binary && f->id->binary(head, n);
	what = bin ? NULL : fold_magic(head, n);
	if (what || (f->kind == FOLD_LINES && !bin && isbinary(head, n, why,
	    sizeof why)))
		return fold_seterr("%s: binary data (%s), not %s",
		    fold_in_name(in), what ? what : why, f->id->input);
	if ((what = fold_lookalike(head, n)) != NULL)
		return fold_seterr("%s: not %s: it is %s", fold_in_name(in),
		    f->id->input, what);
	ck->head = fold_big_alloc(n, 1);
	memcpy(ck->head, head, n);
	ck->nhead = n;
	return 0;
}

/* "; it looks like bcc output (stackcollapse-bcc reads it)", or "" */
static const char *
looks(const struct collapse_check *ck, char *buf, size_t bufsz)
{
	const struct format_id *like, *two;

	buf[0] = '\0';
	if (ck->nhead == 0)
		return buf;
	like = claims(ck->head, ck->nhead, ck->nhead < HEAD, ck->f->id, &two);
	if (like && !two)
		snprintf(buf, bufsz, "; it looks like %s (%s reads it)",
		    like->input, like->tool);
	return buf;
}

static int
collapse_check_end(struct collapse *c, const struct collapse_check *ck,
    const struct format *f, struct fold_in *in,
    const struct fold_diag *diag, uint64_t records, int rc)
{
	uint64_t bad = diag->count - ck->bad, lines = fold_in_lineno(in);
	char like[256];

	if (rc != 0)
		return rc;
	if (ck->empty) {
		c->empties = fold_reallocarray(c->empties, c->nempties + 1,
		    sizeof *c->empties);
		c->empties[c->nempties++] = fold_strdup(fold_in_name(in));
		return 0;
	}
	if (records == 0 && ck->counted)
		return fold_seterr("%s: no stacks found: not %s%s",
		    fold_in_name(in), f->id->input,
		    looks(ck, like, sizeof like));
	if (records == 0)	/* read as such, maybe, but all dropped */
		return fold_seterr("%s: no stacks found%s", fold_in_name(in),
		    looks(ck, like, sizeof like));
	if (f->kind == FOLD_LINES && lines > 0 && bad > lines / 2)
		return fold_seterr("%s: %llu of %llu lines are not %s%s",
		    fold_in_name(in), (unsigned long long)bad,
		    (unsigned long long)lines, f->id->input,
		    looks(ck, like, sizeof like));
	c->found = 1;
	return 0;
}

static int
collapse_check_finish(struct collapse *c)
{
	char msg[1024];
	size_t i;

	if (c->found)
		return 0;
	for (i = 0; i < c->nempties; i++) {
		snprintf(msg, sizeof msg, "%s: empty input: no stacks found",
		    c->empties[i]);
		c->say(c->arg, msg);
	}
	return c->nempties ? -1 : 0;
}

struct collapse *
collapse_new(const struct format *const *fmts, size_t nfmts,
    const void *const *opts, const struct format *forced,
    struct fold_stacks *st, fold_say_fn *say, void *arg)
{
	struct collapse *c = fold_calloc(1, sizeof *c);
	const struct format *f;
	size_t i;

	c->fmts = fmts;
	c->nfmts = nfmts;
	c->forced = forced;
	c->sumadds = UINT64_MAX;	/* no sum yet */
	c->st = st;
	c->say = say;
	c->arg = arg;
	c->opts = fold_calloc(nfmts, sizeof *c->opts);
	c->readers = fold_calloc(nfmts, sizeof *c->readers);
	c->used = fold_calloc(nfmts, 1);
	/*
	 * Every reader that may be used, now, so that a bad option is a usage
	 * error at once; a forced format needs only its own.
	 */
	for (i = 0; i < nfmts; i++) {
		f = fmts[i];
		if (forced && forced != f)
			continue;
		if (f->optsize) {
			c->opts[i] = fold_malloc(f->optsize);
			memcpy(c->opts[i], opts && opts[i] ? opts[i] :
			    f->defaults, f->optsize);
		}
		if (!(c->readers[i] = f->open(c->opts[i], st))) {
			collapse_free(c);
			return NULL;
		}
	}
	return c;
}

void
collapse_free(struct collapse *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nfmts; i++) {
		if (c->readers[i])
			c->fmts[i]->close(c->readers[i]);
		free(c->opts[i]);
	}
	free(c->opts);
	free(c->readers);
	free(c->used);
	for (i = 0; i < c->nempties; i++)
		free(c->empties[i]);
	free(c->empties);
	free(c);
}

/* The records of format i's reader so far, or the stacks added. */
static uint64_t
records(struct collapse *c, size_t i)
{
	const struct format *f = c->fmts[i];

	return f->records ? f->records(c->readers[i]) : fold_stacks_adds(c->st);
}

/* The unit of the input in just read by format f (reader i), on st. */
static int
set_unit(struct collapse *c, const struct format *f, size_t i,
    struct fold_in *in)
{
	const char *u = f->unit ? f->unit(c->readers[i]) : NULL;

	if (!u)
		u = FOLD_UNIT_SAMPLES;
	if (fold_stacks_set_unit(c->st, u, strlen(u)) < 0)
		return fold_seterr_at(fold_in_name(in), 0, "%s", fold_err());
	return 0;
}

/*
 * Reads in whole on w's thread, with a reader and a table of its own
 * (the frames w's): f's reader i.
 */
static struct whole *
whole_read(struct collapse *c, struct collapse_worker *w, size_t i,
    struct fold_in *in)
{
	const struct format *f = c->fmts[i];
	struct whole *wh = fold_calloc(1, sizeof *wh);
	struct wframes *wf = &w->wf[i];
	struct fold_diag d;
	size_t k, n;

	if (!wf->frames)
		wf->frames = fold_intern_new();
	wh->wf = wf;
	wh->st = fold_stacks_new(wf->frames, fold_stacks_ncols(c->st));
	/* the options alone are read of the run's: it reads meanwhile */
	if ((wh->r = f->open(c->opts[i], wh->st)) != NULL) {
		fold_hold(&d, &wh->held, FOLD_DIAG_LIMIT, 0);
		wh->rc = f->read(wh->r, in, &d);
		if (f->rested)
			f->rested(wh->r);
	} else {
		wh->rc = -1;
	}
	/* names stay where they are: their pointers are handed over */
	n = fold_intern_count(wf->frames) - wf->handed;
	wh->names = fold_reallocarray(NULL, n ? n : 1, sizeof *wh->names);
	for (k = 0; k < n; k++)
		wh->names[k].s = fold_intern_str(wf->frames,
		    (uint32_t)(wf->handed + k), &wh->names[k].len);
	wh->nnames = n;
	wf->handed += n;
	return wh;
}

/*
 * The run's ids of the names wh added to its worker's frames, on the
 * committing thread: every input read is committed, in the order read
 * on each thread, or the run stops.
 */
static void
whole_map(struct collapse *c, struct whole *wh)
{
	struct wframes *wf = wh->wf;
	size_t k;

	wf->map = fold_grow(wf->map, &wf->capmap, wf->nmap + wh->nnames,
	    sizeof *wf->map);
	for (k = 0; k < wh->nnames; k++)
		wf->map[wf->nmap++] = fold_intern(fold_stacks_frames(c->st),
		    wh->names[k].s, wh->names[k].len);
	wh->nnames = 0;
}

static void
whole_free(const struct format *f, struct whole *wh)
{
	if (!wh)
		return;
	if (wh->r)
		f->close(wh->r);
	fold_stacks_free(wh->st);
	fold_held_free(&wh->held);
	free(wh->names);
	free(wh);
}

/*
 * Has reader i take the input in that wh read: 0; 1, nothing done, when
 * it is to read in itself after all; -1 when a warning stopped the run.
 */
static int
whole_take(struct collapse *c, size_t i, struct whole *wh, struct fold_in *in,
    struct fold_diag *diag)
{
	const struct format *f = c->fmts[i];
	uint64_t sum;

	whole_map(c, wh);
	/*
	 * r reads it itself: to meet a failure, or a warning that stops
	 * the run, where it is; to show warnings that were not kept; to
	 * add counts whose sums might overflow, or depend on the order of
	 * their terms (fractions).
	 */
	if (wh->rc != 0 || (diag->strict && (wh->held.n || wh->held.more)) ||
	    (wh->held.more && diag->limit > wh->held.limit) ||
	    fold_stacks_sum(wh->st, &sum) < 0)
		return 1;
	if (c->sumadds != fold_stacks_adds(c->st)) {
		c->sumok = fold_stacks_sum(c->st, &c->sum) == 0;
		c->sumadds = fold_stacks_adds(c->st);
	}
	if (!c->sumok || c->sum > UINT64_MAX - sum ||
	    f->join(c->readers[i], &wh->r, 1) != 0)
		return 1;
	if (fold_stacks_take_mapped(c->st, wh->st, wh->wf->map) < 0)
		abort();	/* the sums said it could not happen */
	c->sum += sum;
	c->sumadds = fold_stacks_adds(c->st);
	return fold_held_say(&wh->held, diag, 0, NULL, NULL) < 0 ? -1 : 0;
}

struct collapse_input *
collapse_prepare(struct collapse *c, struct collapse_worker *w,
    struct fold_in *in)
{
	struct collapse_input *ci;
	const struct format *f = c->forced;
	size_t i;

	if (!f && collapse_detect(c->fmts, c->nfmts, in, &f) < 0)
		return NULL;
	ci = fold_calloc(1, sizeof *ci);
	if (!f) {	/* empty: what its format would be does not matter */
		ci->check.empty = 1;
		return ci;
	}
	if (collapse_check_begin(&ci->check, f, in) < 0) {
		collapse_drop(c, ci);
		return NULL;
	}
	if (ci->check.empty || !w)
		return ci;
	i = collapse_index(c->fmts, c->nfmts, f);
	/* a large one is read in parts instead, on every thread */
	if (f->whole && fold_in_rewindable(in) && !split_wanted(f, in,
	    &c->split)) {
		ci->whole = whole_read(c, w, i, in);
		return ci;
	}
	if (!f->prepare)
		return ci;
	/* the reader's options are read here, and nothing else of it */
	if (!w->w[i] && !(w->w[i] = f->worker(c->readers[i])))
		return ci;	/* read at its commit */
	ci->prepared = f->prepare(w->w[i], in);
	return ci;
}

int
collapse_commit(struct collapse *c, struct collapse_worker *w,
    struct collapse_input *ci, struct fold_in *in, struct fold_diag *diag)
{
	struct collapse_check *ck = &ci->check;
	const struct format *f = ck->f;
	uint64_t before;
	size_t i;
	int rc;

	ck->bad = diag->count;
	if (!f || ck->empty) {
		rc = collapse_check_end(c, ck, f, in, diag, 0, 0);
		collapse_drop(c, ci);
		return rc;
	}
	i = collapse_index(c->fmts, c->nfmts, f);
	c->used[i] = 1;
	before = records(c, i);
	ck->counted = f->records != NULL;
	if (ci->prepared) {
		rc = f->commit(c->readers[i], w->w[i], ci->prepared, diag);
		ci->prepared = NULL;
	} else if (ci->whole && (rc = whole_take(c, i, ci->whole, in,
	    diag)) != 1) {
		rc = rc < 0 ? -2 : 0;
	} else if (ci->whole && fold_in_rewind(in) < 0) {
		rc = -1;
	} else {
		rc = split_read(f, c->readers[i], c->st, in, diag, &c->split);
	}
	if (rc >= 0 && records(c, i) > before && set_unit(c, f, i, in) < 0)
		rc = -2;	/* the sum would mean nothing: stop */
	if (f->input_done)
		f->input_done(c->readers[i], fold_in_name(in), c->say, c->arg);
	rc = collapse_check_end(c, ck, f, in, diag, records(c, i) - before,
	    rc);
	collapse_drop(c, ci);
	return rc;
}

void
collapse_drop(struct collapse *c, struct collapse_input *ci)
{
	if (!ci)
		return;
	if (ci->prepared)
		ci->check.f->drop(ci->prepared);
	whole_free(ci->check.f, ci->whole);
	fold_big_free(ci->check.head, ci->check.nhead, 1);
	free(ci);
}

int
collapse_read(struct collapse *c, struct fold_in *in, struct fold_diag *diag)
{
	struct collapse_input *ci = collapse_prepare(c, NULL, in);

	return ci ? collapse_commit(c, NULL, ci, in, diag) : -1;
}

struct collapse_worker *
collapse_worker_new(struct collapse *c)
{
	struct collapse_worker *w = fold_calloc(1, sizeof *w);

	w->w = fold_calloc(c->nfmts, sizeof *w->w);
	w->wf = fold_calloc(c->nfmts, sizeof *w->wf);
	return w;
}

void
collapse_worker_free(struct collapse *c, struct collapse_worker *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < c->nfmts; i++) {
		if (w->w[i])
			c->fmts[i]->close(w->w[i]);
		fold_intern_free(w->wf[i].frames);
		free(w->wf[i].map);
	}
	free(w->w);
	free(w->wf);
	free(w);
}

void
collapse_set_split(struct collapse *c, const struct split_opt *o)
{
	c->split = *o;
}

const struct format *
collapse_only(const struct collapse *c)
{
	const struct format *only = c->forced;
	size_t i;

	for (i = 0; i < c->nfmts && !c->forced; i++)
		if (c->used[i]) {
			if (only)
				return NULL;
			only = c->fmts[i];
		}
	return only;
}

int
collapse_finish(struct collapse *c, int ok, struct fold_out *out)
{
	const struct format *f, *only = collapse_only(c);
	size_t i;
	int rc = 0, wrote = 0, k;
	char msg[256];

	for (i = 0; i < c->nfmts; i++)
		if (c->used[i] && c->fmts[i]->finish(c->readers[i], ok,
		    c->say, c->arg) < 0)
			rc = -1;
	for (i = 0; i < c->nfmts && out && !wrote; i++) {
		f = c->fmts[i];
		if (!c->used[i] || !f->output)
			continue;
		if ((k = f->output(c->readers[i], out)) < 0) {
			c->say(c->arg, fold_err());
			rc = -1;
		}
		if (k > 0 && only != f) {
			snprintf(msg, sizeof msg, "the output is that of the "
			    "%s inputs alone: it cannot be merged with the "
			    "others'", f->id->name);
			c->say(c->arg, msg);
			rc = -1;
		}
		wrote = k != 0;
	}
	if (out && !wrote)
		fold_write_jobs(out, c->st, split_jobs(&c->split));
	if (collapse_check_finish(c) < 0)
		rc = -1;
	/* inputs of records that all were dropped: said by their summary */
	else if (ok && rc == 0 && !wrote && c->found &&
	    fold_stacks_len(c->st) == 0) {
		c->say(c->arg, "no stacks found");
		rc = -1;
	}
	return rc;
}
