#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/chrome.h"
#include "formats/firefox.h"
#include "formats/json.h"
#include "formats/tables.h"
#include "formats/trace.h"

#define NONE UINT32_MAX		/* null */
#define BAD (UINT32_MAX - 1)	/* not an index */
/* A sample's weight of 1, and the largest sum kept (see speedscope.c). */
#define ONE ((json_fixed_t)1000000000)
#define LIM ((json_fixed_t)(((unsigned __int128)1 << 126) / 5))
#define MAX_DEPTH 65536
/* Containers open at once that are followed; deeper ones are skipped. */
#define MAX_NEST 200
/*
 * A raw thread's samples may come before its stack table: a stack index
 * below this is counted in place, one above it kept until the table's
 * length is known, so that a wild index costs 4 bytes, not an array.
 */
#define MAX_DIRECT (1u << 20)
/* Cells of a raw row kept: every schema column Gecko writes is below. */
#define NCELLS 16

/* What a container is. */
enum ctx { C_SKIP, C_PROFILE, C_META, C_THREADS, C_THREAD, C_PROCESSES,
    C_SHARED, C_TABLE, C_COLUMN, C_DATA, C_ROW, C_STRINGS };

/* The keys read. */
enum key { K_OTHER, K_META, K_THREADS, K_PROCESSES, K_SHARED, K_VERSION,
    K_PPVERSION, K_NAME, K_PID, K_TID, K_SAMPLES, K_STACKTABLE,
    K_FRAMETABLE, K_FUNCTABLE, K_STRINGTABLE, K_STRINGARRAY, K_SCHEMA,
    K_DATA, K_PREFIX, K_FRAME, K_FUNC, K_ISJS, K_FILENAME, K_LINENUMBER,
    K_STACK, K_WEIGHT, K_WEIGHTTYPE, K_LOCATION, K_PREFIXOFFSET, K_FLAGS,
    K_SOURCE, K_SOURCES, K_FILENAME2 };

/* Tables. */
enum tk { T_SAMPLES, T_STACKS, T_FRAMES, T_FUNCS, T_SOURCES };

/* What a thread's samples count, from samples.weightType. */
enum kind { W_SAMPLES, W_MS, W_BYTES, W_BAD };

/* Columns, as schema or column arrays name them. */
enum col { COL_PREFIX, COL_FRAME, COL_LOCATION, COL_FUNC, COL_NAME,
    COL_ISJS, COL_FILE, COL_LINE, COL_STACK, COL_WEIGHT, NCOLS };

struct fixvec {
	json_fixed_t *v;
	size_t n, cap;
};

/*
 * The tables stacks are named by: a thread's own, or the profile's
 * shared ones (processed format). has[] says which were given.
 */
struct tables {
	struct u32vec prefix, frame;	/* stackTable */
	struct u32vec loc;		/* raw frameTable: location string */
	struct u32vec func;		/* processed frameTable */
	/*
	 * processed funcTable: the name, isJS (to v74) or flags (v75:
	 * bit 0 JS, 3 a source, 4 a line), and the file: a string
	 * (fileName, to v57) or a row of the shared sources (v58)
	 */
	struct u32vec fname, fjs, fflags, ffile, fsrc, fline;
	struct u32vec srcfile;		/* shared sources: filename */
	struct strtab s;
	int has_stacks, has_frames, has_funcs, has_strings;
	int raw_frames;			/* frameTable had a location column */
	int prefix_offset;		/* stackTable had prefixOffset (v66) */
};

/* A thread: its samples, counted by stack row, and what names it. */
struct thread {
	json_fixed_t *acc;	/* by stack row: the weight of its samples */
	size_t acccap;
	struct u32vec late;	/* rows past those known (MAX_DIRECT) ... */
	struct fixvec latew;	/* ... and their weights */
	uint64_t nostack;	/* samples with a null stack */
	uint64_t badstack;	/* samples whose stack is not a row */
	uint64_t nweights;	/* processed: weights given */
	enum kind kind;
	int has_kind;
	int raw;		/* its samples were rows of a schema */
	char *name, *pid, *tid;
	struct tables own;
	size_t no;		/* its number in the file, from 0 */
	uint64_t line;		/* where it began */
};

/* A table being read: whose, and its columns by schema. */
struct table {
	enum tk tk;
	struct tables *t;	/* stacks, frames, funcs */
	int col[NCOLS];		/* raw: the schema's index of each, or -1 */
	int schema;		/* a schema was given */
	struct u32vec pending;	/* raw rows read before the schema */
	uint64_t line;
};

struct firefox_reader {
	struct firefox_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	pcre2_code *re[5];
	pcre2_match_data *md;
	uint64_t seen;		/* inputs read that are Firefox profiles */
	uint64_t records;	/* samples read, over every input */
	const char *unit;	/* of the input just read (static) */
	size_t *matched;	/* by --thread-name: threads of it read */
	uint32_t rootname;	/* "(root)", interned */

	/* one input */
	const char *file;
	struct fold_diag *diag;
	struct json *json;
	enum ctx ctx[MAX_NEST + 2];
	enum key key[MAX_NEST + 2];
	int top;
	int64_t version, ppversion;	/* -1 when not given */
	int shared_done;		/* the shared tables are read */
	struct tables shared;
	struct thread *th;		/* the thread being read, or NULL */
	size_t nthreads;		/* threads begun in this input */
	struct thread **later;		/* threads waiting for shared tables */
	size_t nlater, latercap;
	int has_kind;			/* of the threads kept so far */
	enum kind kind;
	struct table tab;		/* the table being read */
	struct tables *strings;		/* the string array being read */
	int colof;			/* the column array being read */
	struct u32vec *colv;		/* ... into this */
	uint32_t cells[NCELLS];		/* the raw row being read */
	int ncells;
	struct u32vec sstack;		/* processed samples.stack */
	struct fixvec sweight;		/* processed samples.weight */
	int has_sstack, has_sweight;

	/* naming */
	uint32_t *cache;		/* by location or function: its name */
	size_t cachecap;
	char *buf;
	size_t bufcap;
	uint32_t *ids;
	size_t idscap;
};

static void
fpush(struct fixvec *v, json_fixed_t x)
{
	if (v->n == v->cap)
		v->v = fold_grow(v->v, &v->cap, v->n + 1, sizeof *v->v);
	v->v[v->n++] = x;
}

/* A counted warning about the input at line: 0, or -2 under --strict. */
#define warn(r, line, ...) \
	(fold_warn((r)->diag, (r)->file, (line), __VA_ARGS__) < 0 ? -2 : 0)

static void
tables_clear(struct tables *t)
{
	free(t->prefix.v);
	free(t->frame.v);
	free(t->loc.v);
	free(t->func.v);
	free(t->fname.v);
	free(t->fjs.v);
	free(t->fflags.v);
	free(t->ffile.v);
	free(t->fsrc.v);
	free(t->fline.v);
	free(t->srcfile.v);
	strtab_free(&t->s);
	memset(t, 0, sizeof *t);
}

static void
thread_free(struct thread *th)
{
	if (!th)
		return;
	free(th->acc);
	free(th->late.v);
	free(th->latew.v);
	free(th->name);
	free(th->pid);
	free(th->tid);
	tables_clear(&th->own);
	free(th);
}

/*
 * The profiler's own patterns for location strings (its
 * process-profile.js): a native function "name (in library)" with an
 * offset or a file position or neither, then a JS function
 * "name (url:line:column)[source]", then a JS location without a name.
 */
static const char *const patterns[5] = {
	"^(.*) \\(in ([^)]*)\\) (\\+ [0-9]+)$",
	"^(.*) \\(in ([^)]*)\\) (\\(.*:.*\\))$",
	"^(.*) \\(in ([^)]*)\\)$",
	"^(.*) \\((.+?):([0-9]+)(?::([0-9]+))?\\)(?:\\[(\\d+)\\])?$",
	"^()(.+?):([0-9]+)(?::([0-9]+))?(?:\\[(\\d+)\\])?$",
};

static void firefox_close(void *rp);

static void *
firefox_open(const void *optp, struct fold_stacks *st)
{
	const struct firefox_opt *opt = optp;
	struct firefox_reader *r = fold_calloc(1, sizeof *r);
	size_t i;

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->matched = fold_calloc(opt->nthreads + 1, sizeof *r->matched);
	r->rootname = fold_intern(r->frames, "(root)", 6);
	for (i = 0; i < 5; i++) {
		int err;
		PCRE2_SIZE off;

		r->re[i] = pcre2_compile((PCRE2_SPTR)patterns[i],
		    PCRE2_ZERO_TERMINATED, PCRE2_DOLLAR_ENDONLY, &err, &off,
		    NULL);
		if (!r->re[i]) {
			fold_seterr("firefox: pattern %zu does not compile", i);
			firefox_close(r);
			return NULL;
		}
	}
	r->md = pcre2_match_data_create(8, NULL);
	return r;
}

static void
reset_input(struct firefox_reader *r)
{
	size_t i;

	tables_clear(&r->shared);
	thread_free(r->th);
	r->th = NULL;
	for (i = 0; i < r->nlater; i++)
		thread_free(r->later[i]);
	r->nlater = 0;
	free(r->tab.pending.v);
	memset(&r->tab, 0, sizeof r->tab);
	r->sstack.n = r->sweight.n = 0;
}

static void
firefox_close(void *rp)
{
	struct firefox_reader *r = rp;
	size_t i;

	if (!r)
		return;
	reset_input(r);
	free(r->later);
	free(r->sstack.v);
	free(r->sweight.v);
	free(r->cache);
	free(r->buf);
	free(r->ids);
	free(r->matched);
	for (i = 0; i < 5; i++)
		pcre2_code_free(r->re[i]);
	pcre2_match_data_free(r->md);
	json_free(r->json);
	free(r);
}

/* The value of a cell or column element: an index, NONE for null, BAD. */
static uint32_t
index_of(const struct json_event *e)
{
	int64_t v;

	if (e->type == JSON_NULL)
		return NONE;
	if (e->type == JSON_NUMBER && json_int64(e->s, e->n, &v) && v >= 0 &&
	    v < BAD)
		return (uint32_t)v;
	if (e->type == JSON_TRUE)
		return 1;
	if (e->type == JSON_FALSE)
		return 0;
	return BAD;
}

/* Makes th->acc hold row s. */
static void
acc_hold(struct thread *th, size_t s)
{
	size_t old = th->acccap;

	if (s < th->acccap)
		return;
	th->acc = fold_grow(th->acc, &th->acccap, s + 1, sizeof *th->acc);
	memset(th->acc + old, 0, (th->acccap - old) * sizeof *th->acc);
}

static int
acc_add(struct firefox_reader *r, struct thread *th, size_t s,
    json_fixed_t w)
{
	acc_hold(th, s);
	th->acc[s] += w;
	if (th->acc[s] > LIM)
		return fold_seterr_at(r->file, json_line(r->json),
		    "thread %zu: a stack's weight is out of range", th->no), -2;
	return 0;
}

/*
 * Adds weight w to stack row s of th. A row past the stack tables read
 * so far (and past MAX_DIRECT) is kept apart until the thread's table is
 * known, so that a wild index is not an array.
 */
static int
tally(struct firefox_reader *r, struct thread *th, uint32_t s,
    json_fixed_t w)
{
	if (s == NONE) {
		th->nostack++;
		return 0;
	}
	if (s == BAD) {
		th->badstack++;
		return 0;
	}
	if (s >= th->acccap && s >= MAX_DIRECT && s >= th->own.prefix.n &&
	    s >= r->shared.prefix.n) {
		u32vec_push(&th->late, s);
		fpush(&th->latew, w);
		return 0;
	}
	return acc_add(r, th, s, w);
}

/* One raw row, its cells read, into the table being read. */
static int
row(struct firefox_reader *r, const uint32_t *cells, int n)
{
	struct table *tb = &r->tab;
	int c;

#define CELL(k) ((c = tb->col[k]) >= 0 && c < n ? cells[c] : NONE)
	switch (tb->tk) {
	case T_SAMPLES:
		return tally(r, r->th, CELL(COL_STACK), ONE);
	case T_STACKS:
		u32vec_push(&tb->t->prefix, CELL(COL_PREFIX));
		u32vec_push(&tb->t->frame, CELL(COL_FRAME));
		break;
	case T_FRAMES:
		u32vec_push(&tb->t->loc, CELL(COL_LOCATION));
		break;
	case T_FUNCS:
	case T_SOURCES:
		break;
	}
#undef CELL
	return 0;
}

/* A table's schema, whole: the columns this reads. */
static int
schema(struct firefox_reader *r, struct json *j, const struct json_val *v)
{
	static const struct { const char *name; enum col col; } names[] = {
		{ "prefix", COL_PREFIX }, { "frame", COL_FRAME },
		{ "location", COL_LOCATION }, { "stack", COL_STACK },
	};
	const struct json_val *k;
	size_t i, n;
	const char *s;
	int64_t x;

	if (json_type(v) != JSON_OBJECT)
		return warn(r, json_line(j), "a table's schema is not an "
		    "object: its rows are not read");
	r->tab.schema = 1;
	for (k = json_first(j, v); k; k = json_next(j, json_next(j, k))) {
		s = json_text(j, k, &n);
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strlen(names[i].name) == n &&
			    memcmp(names[i].name, s, n) == 0 &&
			    json_val_int64(j, json_next(j, k), &x) &&
			    x >= 0 && x < NCELLS)
				r->tab.col[names[i].col] = (int)x;
	}
	return 0;
}

/* The end of a table: rows read before its schema, now decoded. */
static int
table_end(struct firefox_reader *r)
{
	struct table *tb = &r->tab;
	size_t i;
	int rc = 0;

	if (tb->pending.n && !tb->schema)
		rc = warn(r, tb->line, "a table has rows and no schema: "
		    "its rows are not read");
	else
		for (i = 0; i + NCELLS <= tb->pending.n && rc == 0;
		    i += NCELLS)
			rc = row(r, tb->pending.v + i, NCELLS);
	tb->pending.n = 0;
	if (tb->tk == T_STACKS && tb->t->prefix_offset) {
		/* v66: 0 for a root, else how many rows back the prefix is */
		uint32_t *p = tb->t->prefix.v;
		for (i = 0; i < tb->t->prefix.n; i++)
			p[i] = p[i] == 0 || p[i] == NONE ? NONE : p[i] <= i ?
			    (uint32_t)(i - p[i]) : BAD;
	}
	return rc;
}

static const char *
kindname(enum kind k)
{
	return k == W_MS ? "tracing-ms" : k == W_BYTES ? "bytes" : "samples";
}

/* The end of a processed samples table: each stack with its weight. */
static int
samples_end(struct firefox_reader *r)
{
	struct thread *th = r->th;
	size_t i;
	int rc = 0;

	if (!r->has_sstack && !r->has_sweight)
		return 0;
	if (r->has_sweight && r->sweight.n != r->sstack.n)
		rc = warn(r, r->tab.line, "thread %zu: samples has %zu stacks "
		    "and %zu weights: %s", th->no, r->sstack.n, r->sweight.n,
		    r->sweight.n < r->sstack.n ? "the stacks without one "
		    "weigh nothing" : "the weights without a stack are "
		    "dropped");
	for (i = 0; i < r->sstack.n && rc == 0; i++) {
		json_fixed_t w = ONE;
		if (r->has_sweight)
			w = i < r->sweight.n ? r->sweight.v[i] : 0;
		if (w == 0)
			continue;
		rc = tally(r, th, r->sstack.v[i], w);
	}
	th->nweights += r->sweight.n;
	r->records += r->sstack.n;
	r->sstack.n = r->sweight.n = 0;
	r->has_sstack = r->has_sweight = 0;
	return rc;
}

/*
 * A frame's folded name, interned: the function name, or for a JS
 * function without one "(root scope) URL", as the profiler's call tree
 * shows them; with --lines " url:line" after a JS function's name (the
 * line where the function begins); "_[j]" after a function of the
 * page's scripts (chrome.h chrome_user_script, less Firefox's own
 * resource:// and chrome:// scripts), unless --no-jit.
 */
static uint32_t
funcname(struct firefox_reader *r, const char *name, size_t nl, int js,
    const char *url, size_t ul, const char *line, size_t ll)
{
	size_t n = 0, need;
	/* Firefox's own scripts are resource:, chrome: and moz-src: urls */
	int mark = js && !r->opt.no_jit && chrome_user_script(url, ul) &&
	    !fold_startswith(url, ul, "resource://") &&
	    !fold_startswith(url, ul, "chrome://") &&
	    !fold_startswith(url, ul, "moz-src://");

	if (!js)
		ul = ll = 0;
	need = nl + 2 * ul + ll + 32;
	r->buf = fold_grow(r->buf, &r->bufcap, need, 1);
	if (js && nl == 0 && ul) {
		memcpy(r->buf, "(root scope) ", 13);
		memcpy(r->buf + 13, url, ul);
		n = 13 + ul;
	} else {
		memcpy(r->buf, name, nl);
		n = nl;
	}
	if (r->opt.lines && ul) {
		r->buf[n++] = ' ';
		memcpy(r->buf + n, url, ul);
		n += ul;
	}
	if (r->opt.lines && ul && ll) {
		r->buf[n++] = ':';
		memcpy(r->buf + n, line, ll);
		n += ll;
	}
	if (n == 0) {
		memcpy(r->buf, "[unknown]", 9);
		n = 9;
	}
	fold_frame_clean(r->buf, n);
	if (mark) {
		memcpy(r->buf + n, "_[j]", 4);
		n += 4;
	}
	return fold_intern(r->frames, r->buf, n);
}

/*
 * The folded name of a location string (raw format), as the profiler
 * names its function: see patterns.
 */
static uint32_t
locname(struct firefox_reader *r, const char *s, size_t n)
{
	PCRE2_SIZE *ov;
	const char *name = s, *url = NULL;
	size_t nl = n, ul = 0, ll = 0, k;
	const char *line = NULL;
	int i, rc = -1, js = 0;

	if (n >= 2 && s[0] == '0' && s[1] == 'x')
		i = 5;
	else
		for (i = 0; i < 5; i++)
			if ((rc = pcre2_match(r->re[i], (PCRE2_SPTR)s, n, 0, 0,
			    r->md, NULL)) >= 0)
				break;
	if (i < 5) {
		ov = pcre2_get_ovector_pointer(r->md);
		name = s + ov[2];
		nl = ov[3] - ov[2];
		if (i < 3) {
			/* as the profiler's _cleanFunctionName */
			if (fold_startswith(name, nl,
			    "non-virtual thunk to ")) {
				name += 21;
				nl -= 21;
			}
		} else {
			js = 1;
			url = s + ov[4];
			ul = ov[5] - ov[4];
			line = s + ov[6];
			ll = ov[7] - ov[6];
			/* a chain "a -> b" of urls is its last */
			for (k = ul; k >= 4; k--)
				if (memcmp(url + k - 4, " -> ", 4) == 0) {
					url += k;
					ul -= k;
					break;
				}
		}
	}
	return funcname(r, name, nl, js, url, ul, line, ll);
}

/* String i of x, or NULL. */
static const char *
str(const struct tables *x, uint32_t i, size_t *n)
{
	return strtab_get(&x->s, i, n);
}

/* The tables a thread's stacks are named by. */
struct names {
	/* stacks, frames, functions, strings */
	const struct tables *s, *f, *u, *x;
	int raw;
};

/* The name of frame f, or NONE when the tables do not have it. */
static uint32_t
frameid(struct firefox_reader *r, const struct names *nm, uint32_t f)
{
	const struct tables *u = nm->u;
	uint32_t k, id;
	const char *s, *url = NULL;
	size_t n, ul = 0, ll = 0;
	char line[24];

	if (nm->raw) {
		if (f >= nm->f->loc.n || (k = nm->f->loc.v[f]) >= nm->x->s.n)
			return NONE;
	} else if (f >= nm->f->func.n || (k = nm->f->func.v[f]) >=
	    u->fname.n)
		return NONE;
	if (r->cache[k] != NONE)
		return r->cache[k];
	if (nm->raw) {
		s = str(nm->x, k, &n);
		id = locname(r, s, n);
	} else {
		uint32_t fl = k < u->fflags.n ? u->fflags.v[k] : 0, file = NONE;
		int js, hasflags = u->fflags.n > 0;

		if (!(s = str(nm->x, u->fname.v[k], &n)))
			return NONE;
		js = u->fjs.n ? k < u->fjs.n && u->fjs.v[k] == 1 :
		    hasflags && (fl & 1);
		/* the file: a string to v57, a row of the sources since */
		if (k < u->ffile.n)
			file = u->ffile.v[k];
		else if (k < u->fsrc.n && (!hasflags || (fl & 8)) &&
		    u->fsrc.v[k] < r->shared.srcfile.n)
			file = r->shared.srcfile.v[u->fsrc.v[k]];
		if (file != NONE && !(url = str(nm->x, file, &ul)))
			ul = 0;
		if (k < u->fline.n && u->fline.v[k] < BAD &&
		    (!hasflags || (fl & 16)))
			ll = (size_t)snprintf(line, sizeof line, "%u",
			    u->fline.v[k]);
		id = funcname(r, s, n, js, url, ul, line, ll);
	}
	return r->cache[k] = id;
}

/* "NAME-PID/TID" for --thread-root, as chrome-tracing's (trace.h). */
static uint32_t
rootof(struct firefox_reader *r, const struct thread *th)
{
	const char *nm = th->name ? th->name : "thread";
	const char *p = th->pid ? th->pid : "", *t = th->tid ? th->tid : "";

	return trace_thread_root(r->frames, nm, strlen(nm), p, strlen(p), t,
	    strlen(t));
}

/* A stack's weight as a count of the thread's kind; 0 and *c, or -1. */
static int
count_of(enum kind kind, json_fixed_t a, struct fold_count *c)
{
	if (kind == W_MS) {
		/* 10^-9 ms to whole nanoseconds, rounded once */
		a = (a + 500) / 1000;
		if (a > (json_fixed_t)UINT64_MAX)
			return -1;
		*c = fold_count_u64((uint64_t)a);
	} else if (a % ONE == 0) {
		if (a / ONE > (json_fixed_t)UINT64_MAX)
			return -1;
		*c = fold_count_u64((uint64_t)(a / ONE));
	} else
		*c = fold_count_double((double)a / 1e9);
	return 0;
}

/* Names the stacks of th's samples and adds them to st. */
static int
resolve(struct firefox_reader *r, struct thread *th)
{
	struct names nm;
	const struct tables *s;
	size_t nst, i, n, k, ncache, missing = 0, broken = 0;
	uint32_t root, p, id;
	struct fold_count c;
	int rc = 0;

	nm.s = th->own.has_stacks ? &th->own : &r->shared;
	nm.f = th->own.has_frames ? &th->own : &r->shared;
	nm.u = th->own.has_funcs ? &th->own : &r->shared;
	nm.x = th->own.has_strings ? &th->own : &r->shared;
	nm.raw = nm.f->raw_frames;
	s = nm.s;
	if (!s->has_stacks || !nm.f->has_frames || !nm.x->has_strings ||
	    (!nm.raw && !nm.u->has_funcs))
		return warn(r, th->line, "thread %zu (%s) has no %s: its "
		    "samples are dropped", th->no, th->name ? th->name : "",
		    !s->has_stacks ? "stackTable" : !nm.f->has_frames ?
		    "frameTable" : !nm.x->has_strings ? "string table" :
		    "funcTable");
	nst = s->prefix.n < s->frame.n ? s->prefix.n : s->frame.n;
	for (i = 0; i < th->late.n && rc == 0; i++) {
		if (th->late.v[i] >= nst)
			th->badstack++;
		else
			rc = acc_add(r, th, th->late.v[i], th->latew.v[i]);
	}
	ncache = nm.raw ? nm.x->s.n : nm.u->fname.n;
	r->cache = fold_grow(r->cache, &r->cachecap, ncache + 1,
	    sizeof *r->cache);
	memset(r->cache, 0xff, (ncache + 1) * sizeof *r->cache);
	root = r->opt.thread_root ? rootof(r, th) : NONE;
	for (i = 0; i < th->acccap && rc == 0; i++) {
		if (th->acc[i] == 0)
			continue;
		if (i >= nst || th->acc[i] < 0) {
			missing += i >= nst;
			broken += i < nst;
			continue;
		}
		/* leaf to root, then turned */
		n = 0;
		for (k = i; ; k = p) {
			id = n < MAX_DEPTH ? frameid(r, &nm, s->frame.v[k]) :
			    NONE;
			p = s->prefix.v[k];
			if (id == NONE || (p != NONE && p >= k))
				break;
			r->ids = fold_grow(r->ids, &r->idscap, n + 2,
			    sizeof *r->ids);
			r->ids[1 + n++] = id;
			if (p == NONE)
				break;
		}
		if (id == NONE || (p != NONE && p >= k)) {
			broken++;
			continue;
		}
		for (k = 0; k < n / 2; k++) {
			id = r->ids[1 + k];
			r->ids[1 + k] = r->ids[n - k];
			r->ids[n - k] = id;
		}
		k = 1;
		if (n > 1 && r->ids[1] == r->rootname)
			k++, n--;
		if (root != NONE)
			r->ids[--k] = root, n++;
		if (count_of(th->kind, th->acc[i], &c) < 0)
			return fold_seterr("%s: thread %zu: a stack's weight "
			    "is out of range", r->file, th->no), -2;
		if (fold_stacks_add(r->st, r->ids + k, n, &c) < 0)
			return fold_seterr("%s: %s", r->file, fold_err()), -2;
	}
	if (rc == 0 && (missing || th->badstack))
		rc = warn(r, th->line, "thread %zu (%s): samples name %zu "
		    "stack %s its stackTable does not have: dropped", th->no,
		    th->name ? th->name : "", missing + (size_t)th->badstack,
		    missing + th->badstack == 1 ? "row" : "rows");
	if (rc == 0 && broken)
		rc = warn(r, th->line, "thread %zu (%s): %zu %s a frame, "
		    "function or string the tables do not have, or a prefix "
		    "not before %s: %s samples are dropped", th->no,
		    th->name ? th->name : "", broken, broken == 1 ?
		    "stack names" : "stacks name", broken == 1 ? "it" : "them",
		    broken == 1 ? "its" : "their");
	return rc;
}

static int
listed(const char *s, const char **list, size_t n, size_t *matched)
{
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; s && i < n; i++)
		if (strcmp(s, list[i]) == 0) {
			if (matched)
				matched[i]++;
			return 1;
		}
	return 0;
}

/* The end of a thread: its stacks now, or when the shared tables are. */
static int
thread_end(struct firefox_reader *r)
{
	struct thread *th = r->th;
	size_t k;
	int rc = 0, weightless = 0;

	r->th = NULL;
	if (!listed(th->pid, r->opt.pids, r->opt.npids, NULL) ||
	    !listed(th->tid, r->opt.tids, r->opt.ntids, NULL) ||
	    !listed(th->name, r->opt.threads, r->opt.nthreads, r->matched))
		goto done;
	if (th->kind == W_BAD)
		goto done;
	/* a thread of no weight (every stack null) sets no unit */
	for (k = 0; k < th->acccap && th->acc[k] == 0; k++)
		;
	if (k == th->acccap && th->late.n == 0)
		weightless = 1;
	else if (!r->has_kind) {
		r->has_kind = 1;
		r->kind = th->kind;
	} else if (th->kind != r->kind) {
		rc = warn(r, th->line, "thread %zu (%s) counts %s and the "
		    "threads before it %s: skipped (--thread-name chooses)",
		    th->no, th->name ? th->name : "", kindname(th->kind),
		    kindname(r->kind));
		goto done;
	}
	if (th->nostack)
		rc = warn(r, th->line, "thread %zu (%s): %llu %s no stack: "
		    "not counted", th->no, th->name ? th->name : "",
		    (unsigned long long)th->nostack, th->nostack == 1 ?
		    "sample has" : "samples have");
	if (weightless)
		goto done;
	if (rc == 0 && !r->shared_done && (!th->own.has_stacks ||
	    !th->own.has_frames || !th->own.has_strings ||
	    (!th->own.raw_frames && !th->own.has_funcs))) {
		/* until the shared tables are read */
		if (r->nlater == r->latercap)
			r->later = fold_grow(r->later, &r->latercap,
			    r->nlater + 1, sizeof *r->later);
		r->later[r->nlater++] = th;
		return 0;
	}
	if (rc == 0)
		rc = resolve(r, th);
done:
	thread_free(th);
	return rc;
}

static enum key
keyof(const char *s, size_t n)
{
	static const struct { const char *s; enum key k; } keys[] = {
		{ "meta", K_META }, { "threads", K_THREADS },
		{ "processes", K_PROCESSES }, { "shared", K_SHARED },
		{ "version", K_VERSION },
		{ "preprocessedProfileVersion", K_PPVERSION },
		{ "name", K_NAME }, { "pid", K_PID }, { "tid", K_TID },
		{ "samples", K_SAMPLES }, { "stackTable", K_STACKTABLE },
		{ "frameTable", K_FRAMETABLE }, { "funcTable", K_FUNCTABLE },
		{ "stringTable", K_STRINGTABLE },
		{ "stringArray", K_STRINGARRAY }, { "schema", K_SCHEMA },
		{ "data", K_DATA }, { "prefix", K_PREFIX },
		{ "frame", K_FRAME }, { "func", K_FUNC }, { "isJS", K_ISJS },
		{ "fileName", K_FILENAME }, { "lineNumber", K_LINENUMBER },
		{ "stack", K_STACK }, { "weight", K_WEIGHT },
		{ "weightType", K_WEIGHTTYPE }, { "location", K_LOCATION },
		{ "prefixOffset", K_PREFIXOFFSET }, { "flags", K_FLAGS },
		{ "source", K_SOURCE }, { "sources", K_SOURCES },
		{ "filename", K_FILENAME2 },
	};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i].s) == n && memcmp(keys[i].s, s, n) == 0)
			return keys[i].k;
	return K_OTHER;
}

/* A number or string, as text, for a thread's pid and tid. */
static char *
text(const struct json_event *e)
{
	if (e->type != JSON_NUMBER && e->type != JSON_STRING)
		return NULL;
	return fold_strndup(e->s, e->n);
}

/* A table of t begins. */
static void
table_begin(struct firefox_reader *r, enum tk tk, struct tables *t)
{
	int i;

	r->tab.tk = tk;
	r->tab.t = t;
	for (i = 0; i < NCOLS; i++)
		r->tab.col[i] = -1;
	r->tab.schema = 0;
	r->tab.pending.n = 0;
	r->tab.line = json_line(r->json);
	if (tk == T_STACKS) {
		t->has_stacks = 1;
		t->prefix.n = t->frame.n = 0;
		t->prefix_offset = 0;
	} else if (tk == T_FRAMES) {
		t->has_frames = 1;
		t->loc.n = t->func.n = 0;
	} else if (tk == T_FUNCS) {
		t->has_funcs = 1;
		t->fname.n = t->fjs.n = t->fflags.n = t->ffile.n = 0;
		t->fsrc.n = t->fline.n = 0;
	} else if (tk == T_SOURCES)
		t->srcfile.n = 0;
}

/* A column array of the table being read, by its key: where it goes. */
static struct u32vec *
column(struct firefox_reader *r, enum key k)
{
	struct tables *t = r->tab.t;

	switch (r->tab.tk) {
	case T_STACKS:
		if (k == K_PREFIXOFFSET)
			t->prefix_offset = 1;
		return k == K_PREFIX || k == K_PREFIXOFFSET ? &t->prefix :
		    k == K_FRAME ? &t->frame : NULL;
	case T_FRAMES:
		if (k == K_FUNC)
			return &t->func;
		return NULL;
	case T_FUNCS:
		return k == K_NAME ? &t->fname : k == K_ISJS ? &t->fjs :
		    k == K_FLAGS ? &t->fflags : k == K_FILENAME ? &t->ffile :
		    k == K_SOURCE ? &t->fsrc : k == K_LINENUMBER ? &t->fline :
		    NULL;
	case T_SOURCES:
		return k == K_FILENAME2 ? &t->srcfile : NULL;
	case T_SAMPLES:
		if (k == K_STACK) {
			r->sstack.n = 0;
			r->has_sstack = 1;
			return &r->sstack;
		}
		return NULL;
	}
	return NULL;
}

/* A value in an object that is a table. */
static int
in_table(struct firefox_reader *r, struct json *j, const struct json_event *e,
    enum key k, int d)
{
	struct thread *th = r->th;

	if (k == K_SCHEMA && e->type == JSON_OBJECT)
		return JSON_CAPTURE;
	if (k == K_DATA && e->type == JSON_ARRAY) {
		r->ctx[d] = C_DATA;
		if (r->tab.tk == T_FRAMES)
			r->tab.t->raw_frames = 1;
		if (r->tab.tk == T_SAMPLES)
			th->raw = 1;
		return 0;
	}
	if (r->tab.tk == T_SAMPLES && k == K_WEIGHTTYPE) {
		if (e->type != JSON_STRING)
			return e->type == JSON_NULL ? 0 : JSON_SKIP;
		th->has_kind = 1;
		th->kind = e->n == 7 && !memcmp(e->s, "samples", 7) ?
		    W_SAMPLES : e->n == 10 && !memcmp(e->s, "tracing-ms", 10) ?
		    W_MS : e->n == 5 && !memcmp(e->s, "bytes", 5) ? W_BYTES :
		    W_BAD;
		if (th->kind == W_BAD)
			return warn(r, json_line(j), "thread %zu: samples of "
			    "weightType \"%.*s\", not samples, tracing-ms or "
			    "bytes: skipped", th->no,
			    (int)(e->n > 40 ? 40 : e->n), e->s);
		return 0;
	}
	if (r->tab.tk == T_SAMPLES && k == K_WEIGHT && e->type == JSON_ARRAY) {
		r->sweight.n = 0;
		r->has_sweight = 1;
		r->ctx[d] = C_COLUMN;
		r->colof = COL_WEIGHT;
		return 0;
	}
	if (e->type == JSON_ARRAY && (r->colv = column(r, k))) {
		r->colv->n = 0;
		r->ctx[d] = C_COLUMN;
		r->colof = 0;
		return 0;
	}
	return e->type == JSON_OBJECT || e->type == JSON_ARRAY ? JSON_SKIP : 0;
}

/* A row of a table's data is read: its cells into the table. */
static int
row_end(struct firefox_reader *r)
{
	int i;

	if (r->tab.tk == T_SAMPLES)
		r->records++;
	if (r->tab.schema)
		return row(r, r->cells, r->ncells < NCELLS ? r->ncells :
		    NCELLS);
	for (i = 0; i < NCELLS; i++)
		u32vec_push(&r->tab.pending, i < r->ncells ? r->cells[i] :
		    NONE);
	return 0;
}

/* A value that begins or a scalar, at depth d, in the container at d-1. */
static int
value(struct firefox_reader *r, struct json *j, const struct json_event *e,
    int d)
{
	int start = e->type == JSON_OBJECT || e->type == JSON_ARRAY;
	enum key k = r->key[d];
	json_fixed_t w;
	int rc;

	r->ctx[d] = C_SKIP;
	switch (r->ctx[d - 1]) {
	case C_PROFILE:
		if (k == K_META && e->type == JSON_OBJECT)
			r->ctx[d] = C_META;
		else if (k == K_THREADS && e->type == JSON_ARRAY)
			r->ctx[d] = C_THREADS;
		else if (k == K_PROCESSES && e->type == JSON_ARRAY)
			r->ctx[d] = C_PROCESSES;
		else if (k == K_SHARED && e->type == JSON_OBJECT && d == 1)
			r->ctx[d] = C_SHARED;
		break;
	case C_META:
		if (d == 2 && (k == K_VERSION || k == K_PPVERSION) &&
		    e->type == JSON_NUMBER) {
			int64_t v;
			if (!json_int64(e->s, e->n, &v))
				v = -1;
			if (k == K_VERSION)
				r->version = v;
			else
				r->ppversion = v;
		}
		break;
	case C_PROCESSES:
		if (e->type == JSON_OBJECT)
			r->ctx[d] = C_PROFILE;
		break;
	case C_THREADS:
		if (e->type == JSON_OBJECT) {
			r->ctx[d] = C_THREAD;
			r->th = fold_calloc(1, sizeof *r->th);
			r->th->no = r->nthreads++;
			r->th->line = json_line(j);
			return 0;
		}
		if (warn(r, json_line(j), "thread %zu is %s, not an object: "
		    "not read%s", r->nthreads++, e->type == JSON_STRING ?
		    "a string" : "not an object", e->type == JSON_STRING ?
		    " (as old Gecko profiles wrote threads)" : "") < 0)
			return -2;
		break;
	case C_THREAD:
		if (k == K_NAME && e->type == JSON_STRING) {
			free(r->th->name);
			r->th->name = text(e);
		} else if (k == K_PID || k == K_TID) {
			char **p = k == K_PID ? &r->th->pid : &r->th->tid;
			free(*p);
			*p = text(e);
		} else if (e->type == JSON_OBJECT && (k == K_SAMPLES ||
		    k == K_STACKTABLE || k == K_FRAMETABLE ||
		    k == K_FUNCTABLE)) {
			r->ctx[d] = C_TABLE;
			table_begin(r, k == K_SAMPLES ? T_SAMPLES :
			    k == K_STACKTABLE ? T_STACKS : k == K_FRAMETABLE ?
			    T_FRAMES : T_FUNCS, &r->th->own);
		} else if (e->type == JSON_ARRAY && (k == K_STRINGTABLE ||
		    k == K_STRINGARRAY)) {
			r->ctx[d] = C_STRINGS;
			r->strings = &r->th->own;
			strtab_clear(&r->strings->s);
			r->strings->has_strings = 1;
		}
		break;
	case C_SHARED:
		if (e->type == JSON_ARRAY && k == K_STRINGARRAY) {
			r->ctx[d] = C_STRINGS;
			r->strings = &r->shared;
			strtab_clear(&r->strings->s);
			r->strings->has_strings = 1;
		} else if (e->type == JSON_OBJECT && (k == K_STACKTABLE ||
		    k == K_FRAMETABLE || k == K_FUNCTABLE || k == K_SOURCES)) {
			r->ctx[d] = C_TABLE;
			table_begin(r, k == K_STACKTABLE ? T_STACKS :
			    k == K_FRAMETABLE ? T_FRAMES : k == K_FUNCTABLE ?
			    T_FUNCS : T_SOURCES, &r->shared);
		}
		break;
	case C_TABLE:
		return in_table(r, j, e, k, d);
	case C_COLUMN:
		if (r->colof == COL_WEIGHT) {
			if (e->type == JSON_NULL)
				w = ONE;
			else if (e->type != JSON_NUMBER ||
			    !json_fixed(e->s, e->n, 9, &w) || w < 0 ||
			    w > LIM) {
				if (warn(r, json_line(j), "thread %zu: a bad "
				    "sample weight: the sample is dropped",
				    r->th->no) < 0)
					return -2;
				w = 0;
			}
			fpush(&r->sweight, w);
		} else {
			uint32_t x = index_of(e);
			int64_t v;
			/* a negative prefix was a root for a while (v65) */
			if (x == BAD && r->colv == &r->tab.t->prefix &&
			    e->type == JSON_NUMBER && json_int64(e->s, e->n,
			    &v) && v < 0)
				x = NONE;
			u32vec_push(r->colv, x);
		}
		break;
	case C_DATA:
		r->ncells = 0;
		if (e->type == JSON_ARRAY) {
			r->ctx[d] = C_ROW;
			return 0;
		}
		/* a row that is not an array: empty, so that the rows after
		   it keep their indices */
		if ((rc = row_end(r)) < 0)
			return rc;
		break;
	case C_ROW:
		if (r->ncells < NCELLS)
			r->cells[r->ncells] = index_of(e);
		r->ncells++;
		break;
	case C_STRINGS:
		if (e->type == JSON_STRING)
			strtab_add(&r->strings->s, e->s, e->n);
		else
			strtab_add(&r->strings->s, "", 0);
		break;
	default:
		break;
	}
	if (r->ctx[d] != C_SKIP)
		return 0;
	return start ? JSON_SKIP : 0;
}

/* The end of the container at depth d. */
static int
end(struct firefox_reader *r, int d)
{
	int rc = 0;
	size_t k;

	switch (r->ctx[d]) {
	case C_ROW:
		return row_end(r);
	case C_TABLE:
		if ((rc = table_end(r)) == 0 && r->tab.tk == T_SAMPLES)
			rc = samples_end(r);
		return rc;
	case C_THREAD:
		return thread_end(r);
	case C_SHARED:
		r->shared_done = 1;
		return 0;
	case C_PROFILE:
		if (d != 0)
			return 0;
		/* the threads that waited for the shared tables */
		r->shared_done = 1;
		for (k = 0; k < r->nlater && rc == 0; k++)
			rc = resolve(r, r->later[k]);
		return rc;
	default:
		return 0;
	}
}

/* Each event of the input (json.h). */
static int
on(void *ctx, struct json *j, const struct json_event *e)
{
	struct firefox_reader *r = ctx;
	int d = e->depth;

	if (d > MAX_NEST)
		return e->type == JSON_OBJECT || e->type == JSON_ARRAY ?
		    JSON_SKIP : 0;
	switch (e->type) {
	case JSON_KEY:
		r->key[d] = keyof(e->s, e->n);
		return 0;
	case JSON_END:
		return end(r, d);
	case JSON_VALUE:
		return schema(r, j, e->v);
	default:
		break;
	}
	if (d == 0) {
		if (e->type != JSON_OBJECT)
			return json_fail(j, "not a Firefox profile: a JSON "
			    "object expected");
		r->top = 1;
		r->ctx[0] = C_PROFILE;
		return 0;
	}
	return value(r, j, e, d);
}

static int
firefox_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct firefox_reader *r = rp;
	int rc;

	r->file = fold_in_name(in);
	if (json_begin(in, r->opt.max_size ? r->opt.max_size : FIREFOX_MAX_SIZE,
	    "{", "a Firefox profile") < 0)
		return -1;
	r->diag = diag;
	reset_input(r);
	r->top = r->shared_done = r->has_kind = 0;
	r->version = r->ppversion = -1;
	r->nthreads = 0;
	r->unit = NULL;
	memset(r->ctx, 0, sizeof r->ctx);
	memset(r->key, 0, sizeof r->key);
	if (!r->json)
		r->json = json_new(on, r);
	rc = json_read(r->json, in);
	if (rc == 0 && !r->top)
		rc = fold_seterr_at(r->file, 1, "not a Firefox profile: a JSON "
		    "object expected");
	if (rc == 0 && r->version < 0 && r->ppversion < 0)
		rc = fold_seterr("%s: not a Firefox profile: no meta.version "
		    "nor meta.preprocessedProfileVersion", r->file);
	reset_input(r);
	if (rc == 0)
		r->seen++;
	if (rc == 0 && r->has_kind && r->kind != W_SAMPLES)
		r->unit = r->kind == W_MS ? "nanoseconds" : "bytes";
	return rc;
}

static const char *
firefox_unit(const void *rp)
{
	return ((const struct firefox_reader *)rp)->unit;
}

/* samples read (a profile of no sample is still read: the summary says) */
static uint64_t
firefox_records(const void *rp)
{
	const struct firefox_reader *r = rp;

	return r->records ? r->records : r->seen;
}

static int
firefox_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct firefox_reader *r = rp;
	char msg[512];
	size_t i;
	int rc = 0;

	for (i = 0; ok && i < r->opt.nthreads; i++)
		if (!r->matched[i]) {
			snprintf(msg, sizeof msg, "no thread named \"%s\"",
			    r->opt.threads[i]);
			say(arg, msg);
			rc = -1;
		}
	return rc;
}

#define OFF(field) offsetof(struct firefox_opt, field)

static const struct fold_option firefox_options[] = {
	{ .name = "lines", .kind = FOLD_OPT_FLAG, .off = OFF(lines),
	    .value = 1,
	    .help = "JS frames \"name url:line\" (where the function begins)" },
	{ .name = "max-size", .arg = "BYTES", .kind = FOLD_OPT_SIZE,
	    .off = OFF(max_size),
	    .help = "refuse an input larger than BYTES (K, M, G, T)" },
	{ .name = "no-jit", .kind = FOLD_OPT_FLAG, .off = OFF(no_jit),
	    .value = 1,
	    .help = "no \"_[j]\" on functions of the page's scripts" },
	{ .name = "process-id", .arg = "PID", .kind = FOLD_OPT_LIST,
	    .off = OFF(pids), .countoff = OFF(npids),
	    .help = "read only the threads of process PID (repeatable)" },
	{ .name = "thread-id", .arg = "TID", .kind = FOLD_OPT_LIST,
	    .off = OFF(tids), .countoff = OFF(ntids),
	    .help = "read only the thread TID (repeatable)" },
	{ .name = "thread-name", .arg = "NAME", .kind = FOLD_OPT_LIST,
	    .off = OFF(threads), .countoff = OFF(nthreads),
	    .help = "read only the threads named NAME (repeatable)" },
	{ .name = "thread-root", .kind = FOLD_OPT_FLAG,
	    .off = OFF(thread_root), .value = 1,
	    .help = "put each stack under \"THREAD-PID/TID\"" },
	{ .name = NULL }
};

#undef OFF

static const struct firefox_opt firefox_defaults = FIREFOX_OPT_INIT;

const struct format firefox_format = {
	.id = &firefox_id,
	.kind = FOLD_DOCUMENT,
	.one = "entry",
	.many = "entries",
	.options = firefox_options,
	.optsize = sizeof(struct firefox_opt),
	.defaults = &firefox_defaults,
	.open = firefox_open,
	.read = firefox_read,
	.unit = firefox_unit,
	.records = firefox_records,
	.finish = firefox_finish,
	.close = firefox_close,
};
