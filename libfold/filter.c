#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "folded.h"
#include "intern.h"
#include "filter.h"
#include "str.h"

/* What a step remembers of each frame id it has seen. */
enum { UNKNOWN = 0, MATCH = 1, NOMATCH = 2 };
#define UNMAPPED UINT32_MAX

struct step {
	enum fold_step kind;
	char *label;
	pcre2_code *re;
	pcre2_match_data *md;
	char *repl;
	double num;
	/* pattern steps: UNKNOWN, MATCH or NOMATCH per frame id */
	unsigned char *match;
	size_t nmatch;
	/* rewriting steps: frame id -> map[id] ids at pool[start[id]] */
	uint32_t *start, *len;
	size_t nmap;
	uint32_t *pool;
	size_t npool, cappool;
	struct fold_filter_stat stat;
};

struct fold_filter {
	struct step *steps;
	size_t n, cap;
	struct fold_filter_stat *stats;
	uint32_t *work[2];
	size_t capwork[2];
	char *buf;		/* substitution output */
	size_t capbuf;
	int failed;		/* a match failed inside a keep callback */
};

struct fold_filter *
fold_filter_new(void)
{
	return fold_calloc(1, sizeof(struct fold_filter));
}

void
fold_filter_free(struct fold_filter *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		struct step *s = &f->steps[i];
		free(s->label);
		pcre2_match_data_free(s->md);
		pcre2_code_free(s->re);
		free(s->repl);
		free(s->match);
		free(s->start);
		free(s->len);
		free(s->pool);
	}
	free(f->steps);
	free(f->stats);
	free(f->work[0]);
	free(f->work[1]);
	free(f->buf);
	free(f);
}

static int
has_pattern(enum fold_step k)
{
	return k <= FOLD_STEP_REPLACE;
}

/* Steps that only keep or drop whole stacks, never rewrite one. */
static int
drop_only(enum fold_step k)
{
	return k == FOLD_STEP_GREP || k == FOLD_STEP_EXCLUDE ||
	    k == FOLD_STEP_FOCUS || k == FOLD_STEP_IGNORE;
}

/* Steps that need the whole table (totals, merged counts). */
static int
table_step(enum fold_step k)
{
	return k == FOLD_STEP_MIN_COUNT || k == FOLD_STEP_MIN_SHARE;
}

int
fold_filter_add(struct fold_filter *f, enum fold_step kind,
    const char *pattern, const char *repl, double num, const char *label)
{
	struct step s;
	int err;
	PCRE2_SIZE off;

	memset(&s, 0, sizeof s);
	s.kind = kind;
	s.num = num;
	if (has_pattern(kind)) {
		s.re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
		    0, &err, &off, NULL);
		if (!s.re) {
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(err, msg, sizeof msg);
			return fold_seterr("%s: %s at offset %zu", label,
			    (const char *)msg, (size_t)off);
		}
		/* without JIT (an unsupported platform) matching still works */
		(void)pcre2_jit_compile(s.re, PCRE2_JIT_COMPLETE);
		s.md = pcre2_match_data_create_from_pattern(s.re, NULL);
		if (!s.md) {
			pcre2_code_free(s.re);
			return fold_seterr("%s: out of memory", label);
		}
	}
	if (kind == FOLD_STEP_REPLACE) {
		if (strchr(repl, '\n')) {
			pcre2_match_data_free(s.md);
			pcre2_code_free(s.re);
			return fold_seterr("%s: a frame cannot contain a newline",
			    label);
		}
		s.repl = fold_strdup(repl);
	}
	s.label = fold_strdup(label);
	s.stat.label = s.label;
	s.stat.selects = kind == FOLD_STEP_GREP || kind == FOLD_STEP_FOCUS ||
	    kind == FOLD_STEP_ROOT_AT;
	f->steps = fold_grow(f->steps, &f->cap, f->n + 1, sizeof *f->steps);
	f->steps[f->n++] = s;
	return 0;
}

const struct fold_filter_stat *
fold_filter_stats(const struct fold_filter *f, size_t *n)
{
	size_t i;

	*n = f->n;
	if (!f->stats)
		return NULL;
	for (i = 0; i < f->n; i++)
		f->stats[i] = f->steps[i].stat;
	return f->stats;
}

/* 1 if frame id matches, 0 if not, -1 with a message on a match error. */
static int
matches(struct step *s, const struct fold_intern *fr, uint32_t id)
{
	const char *name;
	size_t len, n;
	int rc;

	if (id >= s->nmatch) {
		n = fold_intern_count(fr);
		if (n <= id)
			n = (size_t)id + 1;
		s->match = fold_realloc(s->match, n);
		memset(s->match + s->nmatch, UNKNOWN, n - s->nmatch);
		s->nmatch = n;
	}
	if (s->match[id] != UNKNOWN)
		return s->match[id] == MATCH;
	name = fold_intern_str(fr, id, &len);
	rc = pcre2_match(s->re, (PCRE2_SPTR)name, len, 0, 0, s->md, NULL);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(rc, msg, sizeof msg);
		return fold_seterr("%s: matching '%.*s%s': %s", s->label,
		    FOLD_CUT(name, len), (const char *)msg);
	}
	s->match[id] = rc >= 0 ? MATCH : NOMATCH;
	return rc >= 0;
}

static void
map_grow(struct step *s, const struct fold_intern *fr, uint32_t id)
{
	size_t n = fold_intern_count(fr), i;

	if (n <= id)
		n = (size_t)id + 1;
	s->start = fold_reallocarray(s->start, n, sizeof *s->start);
	s->len = fold_reallocarray(s->len, n, sizeof *s->len);
	for (i = s->nmap; i < n; i++)
		s->len[i] = UNMAPPED;
	s->nmap = n;
}

static void
pool_add(struct step *s, uint32_t id)
{
	s->pool = fold_grow(s->pool, &s->cappool, s->npool + 1, sizeof *s->pool);
	s->pool[s->npool++] = id;
}

/* Interns the ';'-separated frames of p[0..n) into the pool. */
static void
pool_add_frames(struct step *s, struct fold_intern *fr, const char *p,
    size_t n)
{
	const char *end = p + n, *q;

	while (p < end) {
		q = memchr(p, ';', end - p);
		if (!q)
			q = end;
		if (q > p)
			pool_add(s, fold_intern(fr, p, q - p));
		p = q + 1;
	}
}

/*
 * The frames that id becomes under a rewriting step: sets *out to them
 * and returns their number, or -1 with a message.
 */
/* How much longer --replace may make a name. */
#define REPLACE_GROWTH (64 << 10)

static long
rewrite(struct fold_filter *f, struct step *s, struct fold_intern *fr,
    uint32_t id, const uint32_t **out)
{
	const char *name;
	size_t len;

	if (id >= s->nmap)
		map_grow(s, fr, id);
	if (s->len[id] == UNMAPPED) {
		size_t start = s->npool;
		name = fold_intern_str(fr, id, &len);
		if (s->kind == FOLD_STEP_STRIP_ADDRS) {
			if (!fold_has_hex(name, len)) {
				pool_add(s, id);
			} else {
				size_t need = FOLD_STRIP_HEX_MAX(len);
				if (need > f->capbuf) {
					f->capbuf = need;
					f->buf = fold_realloc(f->buf, need);
				}
				len = fold_strip_hex(name, len, f->buf);
				pool_add(s, fold_intern(fr, f->buf, len));
			}
		} else {
			PCRE2_SIZE outlen = f->capbuf;
			size_t max = len + REPLACE_GROWTH;
			int rc;
			/*
			 * The buffer doubles up to what the name may grow to:
			 * an empty match replaced at every place, step after
			 * step, would grow a name exponentially. (pcre2's
			 * OVERFLOW_LENGTH would compute the whole length.)
			 */
			for (;;) {
				outlen = f->capbuf;
				rc = pcre2_substitute(s->re, (PCRE2_SPTR)name,
				    len, 0, PCRE2_SUBSTITUTE_GLOBAL, s->md,
				    NULL, (PCRE2_SPTR)s->repl,
				    PCRE2_ZERO_TERMINATED,
				    (PCRE2_UCHAR *)f->buf, &outlen);
				if (rc != PCRE2_ERROR_NOMEMORY)
					break;
				if (f->capbuf > max)
					return fold_seterr("%s: rewriting "
					    "'%.*s%s': the name would grow by "
					    "more than %d KiB", s->label,
					    FOLD_CUT(name, len),
					    REPLACE_GROWTH >> 10);
				f->capbuf = f->capbuf < 128 ? 256 :
				    2 * f->capbuf > max + 1 ? max + 1 :
				    2 * f->capbuf;
				f->buf = fold_realloc(f->buf, f->capbuf);
			}
			if (rc < 0) {
				PCRE2_UCHAR msg[256];
				pcre2_get_error_message(rc, msg, sizeof msg);
				return fold_seterr("%s: rewriting '%.*s%s': %s",
				    s->label, FOLD_CUT(name, len),
				    (const char *)msg);
			}
			if (rc == 0)
				pool_add(s, id);
			else
				pool_add_frames(s, fr, f->buf, outlen);
		}
		if (s->npool - start > UINT32_MAX - 1)
			return fold_seterr("%s: frame too long", s->label);
		s->start[id] = (uint32_t)start;
		s->len[id] = (uint32_t)(s->npool - start);
	}
	/* a name rewritten to nothing may come before any pool exists */
	if (!s->pool) {
		s->cappool = 256;
		s->pool = fold_reallocarray(NULL, s->cappool, sizeof *s->pool);
	}
	*out = s->pool + s->start[id];
	return s->len[id];
}

static uint32_t *
work(struct fold_filter *f, int w, size_t n)
{
	return f->work[w] = fold_grow(f->work[w], &f->capwork[w], n,
	    sizeof *f->work[w]);
}

/*
 * Applies step s to the stack ids[0..*n), which it may rewrite in place
 * or replace by another work buffer (*ids updated). Returns 1 to keep the
 * stack, 0 to drop it, -1 on error.
 */
static int
apply(struct fold_filter *f, struct step *s, struct fold_intern *fr,
    uint32_t **ids, size_t *n, int *cur)
{
	uint32_t *v = *ids, *o;
	size_t i, j, k;
	int m;

	switch (s->kind) {
	case FOLD_STEP_GREP:
	case FOLD_STEP_FOCUS:
	case FOLD_STEP_EXCLUDE:
	case FOLD_STEP_IGNORE:
		for (i = 0; i < *n; i++) {
			if ((m = matches(s, fr, v[i])) < 0)
				return -1;
			if (m)
				break;
		}
		if (s->kind == FOLD_STEP_GREP || s->kind == FOLD_STEP_FOCUS)
			return i < *n;
		return i == *n;
	case FOLD_STEP_HIDE:
		for (i = j = 0; i < *n; i++) {
			if ((m = matches(s, fr, v[i])) < 0)
				return -1;
			if (!m)
				v[j++] = v[i];
		}
		*n = j;
		return j > 0;
	case FOLD_STEP_ROOT_AT:
	case FOLD_STEP_PRUNE_FROM:
		for (i = 0; i < *n; i++) {
			if ((m = matches(s, fr, v[i])) < 0)
				return -1;
			if (m)
				break;
		}
		if (i == *n)
			return s->kind == FOLD_STEP_PRUNE_FROM;
		if (s->kind == FOLD_STEP_PRUNE_FROM) {
			*n = i + 1;
		} else {
			memmove(v, v + i, (*n - i) * sizeof *v);
			*n -= i;
		}
		return 1;
	case FOLD_STEP_REPLACE:
	case FOLD_STEP_STRIP_ADDRS: {
		size_t total = 0, before = 0, after = 0, nl;
		const uint32_t *r;
		long len;
		for (i = 0; i < *n; i++) {
			if ((len = rewrite(f, s, fr, v[i], &r)) < 0)
				return -1;
			total += len;
			if (s->kind != FOLD_STEP_REPLACE)
				continue;
			/*
			 * The stack as text may grow by REPLACE_GROWTH too: a
			 * replacement with ';' splits a name into frames, and
			 * step after step the depth would multiply.
			 */
			fold_intern_str(fr, v[i], &nl);
			before += nl + 1;
			for (j = 0; j < (size_t)len; j++) {
				fold_intern_str(fr, r[j], &nl);
				after += nl + 1;
			}
		}
		if (after > before + REPLACE_GROWTH)
			return fold_seterr("%s: a stack would grow by more "
			    "than %d KiB", s->label, REPLACE_GROWTH >> 10);
		o = work(f, !*cur, total);
		v = *ids;	/* work() reallocates only the other buffer */
		for (i = k = 0; i < *n; i++) {
			/* o is NULL when every name is rewritten to nothing */
			if ((len = rewrite(f, s, fr, v[i], &r)) > 0) {
				memcpy(o + k, r, len * sizeof *r);
				k += len;
			}
		}
		*cur = !*cur;
		*ids = o;
		*n = k;
		return k > 0;
	}
	case FOLD_STEP_COLLAPSE_RECURSION:
		for (i = j = 0; i < *n; i++)
			if (j == 0 || v[j - 1] != v[i])
				v[j++] = v[i];
		*n = j;
		return 1;
	case FOLD_STEP_MAX_DEPTH:
		if ((double)*n > s->num)
			*n = (size_t)s->num;
		return *n > 0;
	case FOLD_STEP_REVERSE:
		for (i = 0, j = *n; i + 1 < j; i++, j--) {
			uint32_t t = v[i];
			v[i] = v[j - 1];
			v[j - 1] = t;
		}
		return 1;
	default:
		return 1;
	}
}

/* The stack's count summed over its columns, into *sum; 0 or -1. */
static int
stack_count(struct fold_stacks *st, size_t i, struct fold_count *sum)
{
	const struct fold_count *c = fold_stacks_counts(st, i);
	int k;

	*sum = c[0];
	for (k = 1; k < fold_stacks_ncols(st); k++)
		if (fold_count_add(sum, &c[k]) < 0)
			return -1;
	return 0;
}

static int
table_count(struct fold_stacks *st, struct fold_count *sum)
{
	struct fold_count t = FOLD_COUNT_INIT, c;
	size_t i;

	for (i = 0; i < fold_stacks_len(st); i++)
		if (stack_count(st, i, &c) < 0 || fold_count_add(&t, &c) < 0)
			return -1;
	*sum = t;
	return 0;
}

struct seg {
	struct fold_filter *f;
	size_t from, to;	/* steps */
	double limit;		/* table steps: the count to reach */
};

static int
keep_segment(void *arg, struct fold_stacks *st, size_t i)
{
	struct seg *g = arg;
	struct fold_filter *f = g->f;
	struct fold_intern *fr = fold_stacks_frames(st);
	const uint32_t *ids;
	struct fold_count c;
	size_t n, k;
	int r, cur = 0;

	if (f->failed)
		return 1;
	ids = fold_stacks_ids(st, i, &n);
	if (stack_count(st, i, &c) < 0) {
		f->failed = 1;
		return 1;
	}
	for (k = g->from; k < g->to; k++) {
		struct step *s = &f->steps[k];
		uint32_t *v = (uint32_t *)ids;
		s->stat.stacks_in++;
		(void)fold_count_add(&s->stat.count_in, &c);
		if ((r = apply(f, s, fr, &v, &n, &cur)) < 0) {
			f->failed = 1;
			return 1;
		}
		if (!r)
			return 0;
		s->stat.stacks_out++;
		(void)fold_count_add(&s->stat.count_out, &c);
	}
	return 1;
}

static int
keep_table(void *arg, struct fold_stacks *st, size_t i)
{
	struct seg *g = arg;
	struct fold_count c;

	if (stack_count(st, i, &c) < 0)
		return 1;
	return fold_count_val(&c) >= g->limit;
}

static void
stat_begin(struct step *s)
{
	struct fold_count zero = FOLD_COUNT_INIT;

	s->stat.stacks_in = s->stat.stacks_out = 0;
	s->stat.count_in = s->stat.count_out = zero;
}

/* Runs the per-stack steps from..to into a new table. */
static int
rewrite_segment(struct fold_filter *f, struct fold_stacks **pst, size_t from,
    size_t to)
{
	struct fold_stacks *st = *pst, *nst;
	struct fold_intern *fr = fold_stacks_frames(st);
	size_t i, n, k, len = fold_stacks_len(st);
	struct fold_count c;
	int r, cur;

	nst = fold_stacks_new(fr, fold_stacks_ncols(st));
	for (i = 0; i < len; i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &n);
		uint32_t *v = work(f, 0, n);
		memcpy(v, ids, n * sizeof *v);
		cur = 0;
		if (stack_count(st, i, &c) < 0)
			goto fail;
		for (k = from; k < to; k++) {
			struct step *s = &f->steps[k];
			s->stat.stacks_in++;
			(void)fold_count_add(&s->stat.count_in, &c);
			if ((r = apply(f, s, fr, &v, &n, &cur)) < 0)
				goto fail;
			if (!r)
				break;
			s->stat.stacks_out++;
			(void)fold_count_add(&s->stat.count_out, &c);
		}
		if (k < to)
			continue;
		if (fold_stacks_add(nst, v, n, fold_stacks_counts(st, i)) < 0)
			goto fail;
	}
	fold_stacks_free(st);
	*pst = nst;
	return 0;
fail:
	fold_stacks_free(nst);
	return -1;
}

int
fold_filter_run(struct fold_filter *f, struct fold_stacks **st)
{
	struct seg g;
	size_t i, j;
	int only_drops;

	free(f->stats);
	f->stats = fold_calloc(f->n ? f->n : 1, sizeof *f->stats);
	f->failed = 0;
	for (i = 0; i < f->n; i++)
		stat_begin(&f->steps[i]);
	for (i = 0; i < f->n; i = j) {
		struct step *s = &f->steps[i];
		if (table_step(s->kind)) {
			j = i + 1;
			s->stat.stacks_in = fold_stacks_len(*st);
			/* what the step before left, not summed again: with
			   fractions another order of adding may round apart */
			if (i > 0)
				s->stat.count_in = f->steps[i - 1].stat.count_out;
			else if (table_count(*st, &s->stat.count_in) < 0)
				return -1;
			g.limit = s->num;
			if (s->kind == FOLD_STEP_MIN_SHARE)
				g.limit = fold_count_val(&s->stat.count_in) *
				    s->num / 100;
			fold_stacks_filter(*st, keep_table, &g, 0);
			s->stat.stacks_out = fold_stacks_len(*st);
			if (table_count(*st, &s->stat.count_out) < 0)
				return -1;
			continue;
		}
		only_drops = 1;
		for (j = i; j < f->n && !table_step(f->steps[j].kind); j++)
			if (!drop_only(f->steps[j].kind))
				only_drops = 0;
		if (only_drops) {
			g.f = f;
			g.from = i;
			g.to = j;
			fold_stacks_filter(*st, keep_segment, &g, 0);
			if (f->failed)
				return -1;
		} else if (rewrite_segment(f, st, i, j) < 0) {
			return -1;
		}
	}
	return 0;
}

int
fold_has_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 2 < n; i++)
		if (s[i] == '0' && s[i + 1] == 'x' && fold_isxdigit(s[i + 2]))
			return 1;
	return 0;
}

size_t
fold_strip_hex(const char *s, size_t n, char *out)
{
	size_t i = 0, o = 0;

	while (i < n) {
		if (i + 2 < n && s[i] == '0' && s[i + 1] == 'x' &&
		    fold_isxdigit(s[i + 2])) {
			memcpy(out + o, "0x...", 5);
			o += 5;
			for (i += 2; i < n && fold_isxdigit(s[i]); i++)
				;
		} else {
			out[o++] = s[i++];
		}
	}
	return o;
}

