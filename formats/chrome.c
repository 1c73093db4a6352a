#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/chrome.h"

#define NONE UINT32_MAX
/* a sample that was not an integer (already warned about) */
#define BADID INT64_MIN

enum { UNKNOWN = -1, INPROG = -2, CYCLE = -3 };

struct node {
	int64_t id;
	uint64_t line;		/* where it is, for messages */
	uint64_t nsamp;		/* samples that hit it */
	uint64_t credit;	/* their count: samples or microseconds */
	uint32_t frame;		/* its name, interned */
	uint32_t parent;	/* index, or NONE */
	int32_t depth;		/* frames from its root down to it, or enum */
	unsigned char isroot;	/* named "(root)" */
};

/* A tree edge as written: from lists to as a child, or as its parent. */
struct edge {
	int64_t to;
	uint32_t from;
	unsigned char parentfield;
};

struct vec64 {
	int64_t *v;
	size_t n, cap;
};

struct chrome_reader {
	struct chrome_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	struct chrome_stats stats;

	/* one input */
	const char *file;
	const char *buf, *p, *end;
	const char *linep;	/* lineof(): newlines counted up to here */
	uint64_t line;
	struct fold_diag *diag;
	int seen_nodes, seen_samples, seen_deltas, have_start, have_end;
	int64_t start, endtime;
	uint64_t samples_line, deltas_line;

	struct node *nodes;
	size_t nnodes, nodecap;
	struct edge *edges;
	size_t nedges, edgecap;
	struct vec64 samples, deltas;
	/* id -> index + 1 (0: empty), open addressing */
	int64_t *hkeys;
	uint32_t *hvals;
	size_t hcap, hlen;

	char *name;
	size_t namecap;
	uint32_t *ids, *chain;
	size_t idcap, chaincap;
};

static void
push64(struct vec64 *v, int64_t x)
{
	if (v->n == v->cap)
		v->v = fold_grow(v->v, &v->cap, v->n + 1, sizeof *v->v);
	v->v[v->n++] = x;
}

static void *
chrome_open(const void *optp, struct fold_stacks *st)
{
	const struct chrome_opt *opt = optp;
	struct chrome_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	return r;
}

static void
chrome_close(void *rp)
{
	struct chrome_reader *r = rp;
	if (!r)
		return;
	free(r->nodes);
	free(r->edges);
	free(r->samples.v);
	free(r->deltas.v);
	free(r->hkeys);
	free(r->hvals);
	free(r->name);
	free(r->ids);
	free(r->chain);
	free(r);
}

const struct chrome_stats *
chrome_reader_stats(const struct chrome_reader *r)
{
	return &r->stats;
}

static uint64_t
mix(int64_t id)
{
	uint64_t x = (uint64_t)id;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static uint32_t
lookup(const struct chrome_reader *r, int64_t id)
{
	size_t i, mask = r->hcap - 1;

	if (r->hcap == 0)
		return NONE;
	for (i = mix(id) & mask; r->hvals[i]; i = (i + 1) & mask)
		if (r->hkeys[i] == id)
			return r->hvals[i] - 1;
	return NONE;
}

/* Adds id -> index unless id is there; returns 0, or -1 when it was. */
static int
insert(struct chrome_reader *r, int64_t id, uint32_t index)
{
	size_t i, mask;

	if (2 * (r->hlen + 1) > r->hcap) {
		size_t old = r->hcap, k;
		int64_t *ok = r->hkeys;
		uint32_t *ov = r->hvals;
		r->hcap = old ? old * 2 : 1024;
		r->hkeys = fold_reallocarray(NULL, r->hcap, sizeof *r->hkeys);
		r->hvals = fold_calloc(r->hcap, sizeof *r->hvals);
		mask = r->hcap - 1;
		for (k = 0; k < old; k++) {
			if (!ov[k])
				continue;
			for (i = mix(ok[k]) & mask; r->hvals[i]; i = (i + 1) & mask)
				;
			r->hkeys[i] = ok[k];
			r->hvals[i] = ov[k];
		}
		free(ok);
		free(ov);
	}
	mask = r->hcap - 1;
	for (i = mix(id) & mask; r->hvals[i]; i = (i + 1) & mask)
		if (r->hkeys[i] == id)
			return -1;
	r->hkeys[i] = id;
	r->hvals[i] = index + 1;
	r->hlen++;
	return 0;
}

/* The line of the byte at, counting on from the last call. */
static uint64_t
lineof(struct chrome_reader *r, const char *at)
{
	const char *q;

	if (at < r->linep) {
		r->linep = r->buf;
		r->line = 1;
	}
	while ((q = memchr(r->linep, '\n', at - r->linep)) != NULL) {
		r->line++;
		r->linep = q + 1;
	}
	r->linep = at;
	return r->line;
}

static int
warn(struct chrome_reader *r, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
warn(struct chrome_reader *r, uint64_t line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return fold_warn(r->diag, r->file, line, "%s", msg) < 0 ? -2 : 0;
}

/* Fails the input with a message about the byte at. */
static int
bad(struct chrome_reader *r, const char *at, const char *what)
{
	return fold_seterr_at(r->file, lineof(r, at), "%s", what);
}

static void
ws(struct chrome_reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' ||
	    *r->p == '\r' || *r->p == '\t'))
		r->p++;
}

/* Decodes the value at p with jansson and steps over it; NULL on error. */
static json_t *
decode(struct chrome_reader *r)
{
	json_error_t e;
	json_t *j;
	char msg[256];

	j = json_loadb(r->p, r->end - r->p,
	    JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL, &e);
	if (!j) {
		snprintf(msg, sizeof msg, "not valid JSON: %s", e.text);
		bad(r, r->p + (e.position > 0 ? e.position - 1 : 0), msg);
		return NULL;
	}
	r->p += e.position;
	return j;
}

/*
 * A plain JSON integer, -?(0|[1-9][0-9]*), of up to 18 digits, read
 * without the library: returns 1 and steps over it, or 0 to leave the
 * value to the library (longer, a fraction, an exponent, not a number).
 */
static int
fastint(struct chrome_reader *r, int64_t *v)
{
	const char *q = r->p, *d;
	uint64_t x = 0;
	int neg = 0;

	if (q < r->end && *q == '-')
		neg = 1, q++;
	if (q == r->end || !fold_isdigit(*q))
		return 0;
	d = q;
	if (*q == '0')
		q++;
	else
		while (q < r->end && fold_isdigit(*q) && q - d < 18)
			x = x * 10 + (*q++ - '0');
	if (q < r->end && (fold_isdigit(*q) || *q == '.' ||
	    *q == 'e' || *q == 'E'))
		return 0;
	*v = neg ? -(int64_t)x : (int64_t)x;
	r->p = q;
	return 1;
}

/* An integer value: 1 and *v, 0 for another value (stepped over), -1. */
static int
integer(struct chrome_reader *r, int64_t *v)
{
	json_t *j;
	int rc = 0;

	if (fastint(r, v))
		return 1;
	if (!(j = decode(r)))
		return -1;
	if (json_is_integer(j)) {
		*v = json_integer_value(j);
		rc = 1;
	}
	json_decref(j);
	return rc;
}

/*
 * Walks an array, calling elem for each element at p. Returns 0, -1 on
 * a syntax error, -2 when elem says so.
 */
static int
array(struct chrome_reader *r, int (*elem)(struct chrome_reader *, size_t))
{
	size_t i;
	int rc;

	if (r->p == r->end || *r->p != '[')
		return bad(r, r->p, "an array expected");
	r->p++;
	ws(r);
	if (r->p < r->end && *r->p == ']') {
		r->p++;
		return 0;
	}
	for (i = 0;; i++) {
		ws(r);
		if ((rc = elem(r, i)) < 0)
			return rc;
		ws(r);
		if (r->p == r->end)
			return bad(r, r->p, "not valid JSON: the input ends "
			    "inside an array");
		if (*r->p == ']') {
			r->p++;
			return 0;
		}
		if (*r->p != ',')
			return bad(r, r->p, "not valid JSON: ',' or ']' "
			    "expected in an array");
		r->p++;
	}
}

static int
sample(struct chrome_reader *r, size_t i)
{
	int64_t v;
	int rc;

	if ((rc = integer(r, &v)) < 0)
		return -1;
	if (rc == 0) {
		v = BADID;
		if (warn(r, r->samples_line, "samples[%zu] is not an integer: "
		    "sample dropped", i) < 0)
			return -2;
	}
	push64(&r->samples, v);
	return 0;
}

static int
delta(struct chrome_reader *r, size_t i)
{
	int64_t v;
	int rc;

	if ((rc = integer(r, &v)) < 0)
		return -1;
	if (rc == 0) {
		v = 0;
		if (r->opt.time && warn(r, r->deltas_line, "timeDeltas[%zu] is "
		    "not an integer: taken as 0", i) < 0)
			return -2;
	}
	if (r->opt.time)
		push64(&r->deltas, v);
	return 0;
}

static void
edge(struct chrome_reader *r, uint32_t from, int64_t to, int parentfield)
{
	struct edge *e;

	r->edges = fold_grow(r->edges, &r->edgecap, r->nedges + 1,
	    sizeof *r->edges);
	e = &r->edges[r->nedges++];
	e->from = from;
	e->to = to;
	e->parentfield = parentfield;
}

/*
 * Whether a url is a script of the profiled program: a path or an
 * address (/srv/app.js, file:///srv/app.js, https://host/app.js, C:\).
 * The runtime's own scripts have only a name: node:fs, and before node
 * 16 fs.js or internal/main/run_main_module.js; natives and V8's
 * (program) and (garbage collector) have none.
 */
static int
userscript(const char *u, size_t n)
{
	const char *p;

	if (n == 0 || fold_startswith(u, n, "node:"))
		return 0;
	if (u[0] == '/' || u[0] == '\\' ||
	    (n >= 3 && u[1] == ':' && (u[2] == '\\' || u[2] == '/')))
		return 1;
	p = memchr(u, ':', n);
	return p && (size_t)(u + n - p) >= 3 && p[1] == '/' && p[2] == '/';
}

/*
 * The frame name of a callFrame, cleaned and interned. A function of the
 * profiled program's scripts is marked "_[j]" as perf --jit marks
 * JavaScript: the js palette paints it apart from the runtime, and
 * flame graphs strip the mark from labels.
 */
static uint32_t
framename(struct chrome_reader *r, const char *fn, size_t fl, json_t *cf)
{
	json_t *url = json_object_get(cf, "url");
	json_t *ln = json_object_get(cf, "lineNumber");
	size_t n = 0, ul = 0, i;
	const char *u = NULL;
	char num[32];
	int nl = 0, mark = 0;

	if (fl == 0) {
		fn = "(anonymous)";
		fl = 11;
	}
	if (json_is_string(url))
		mark = !r->opt.no_jit && userscript(json_string_value(url),
		    json_string_length(url));
	if (r->opt.lines && json_is_string(url) && json_string_length(url)) {
		u = json_string_value(url);
		ul = json_string_length(url);
		/* 0-based; one more past INT64_MAX still fits unsigned */
		if (json_is_integer(ln) && json_integer_value(ln) >= 0)
			nl = snprintf(num, sizeof num, ":%llu", (unsigned long
			    long)json_integer_value(ln) + 1);
	}
	r->name = fold_grow(r->name, &r->namecap, fl + ul + nl + 6, 1);
	memcpy(r->name, fn, fl);
	n = fl;
	if (u) {
		r->name[n++] = ' ';
		memcpy(r->name + n, u, ul);
		n += ul;
		memcpy(r->name + n, num, nl);
		n += nl;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = r->name[i];
		if (c == ';' || c < ' ' || c == 0x7f)
			r->name[i] = '_';
	}
	if (mark) {
		memcpy(r->name + n, "_[j]", 4);
		n += 4;
	}
	return fold_intern(r->frames, r->name, n);
}

static int
node(struct chrome_reader *r, size_t i)
{
	const char *at = r->p;
	json_t *j, *id, *cf, *fn, *kids, *par, *k;
	struct node *nd;
	uint64_t line;
	int64_t v;
	size_t x;
	int rc = 0;

	if (!(j = decode(r)))
		return -1;
	line = lineof(r, at);
	id = json_object_get(j, "id");
	cf = json_object_get(j, "callFrame");
	fn = json_object_get(cf, "functionName");
	if (!json_is_object(j)) {
		rc = warn(r, line, "nodes[%zu] is not an object: skipped", i);
		goto out;
	}
	if (!json_is_integer(id) || json_integer_value(id) < 0) {
		rc = warn(r, line, "nodes[%zu]: no id, or not a non-negative "
		    "integer: node skipped", i);
		goto out;
	}
	v = json_integer_value(id);
	if (!json_is_object(cf) || (fn && !json_is_string(fn))) {
		rc = warn(r, line, "node %lld: no callFrame with a string "
		    "functionName: node skipped", (long long)v);
		goto out;
	}
	if (r->nnodes >= NONE - 1) {
		rc = warn(r, line, "node %lld: too many nodes: node skipped",
		    (long long)v);
		goto out;
	}
	if (insert(r, v, r->nnodes) < 0) {
		rc = warn(r, line, "node %lld is listed twice: the second is "
		    "skipped", (long long)v);
		goto out;
	}
	r->nodes = fold_grow(r->nodes, &r->nodecap, r->nnodes + 1,
	    sizeof *r->nodes);
	nd = &r->nodes[r->nnodes];
	memset(nd, 0, sizeof *nd);
	nd->id = v;
	nd->line = line;
	nd->parent = NONE;
	nd->depth = UNKNOWN;
	nd->frame = framename(r, fn ? json_string_value(fn) : "",
	    fn ? json_string_length(fn) : 0, cf);
	nd->isroot = fn && json_string_length(fn) == 6 &&
	    memcmp(json_string_value(fn), "(root)", 6) == 0;
	kids = json_object_get(j, "children");
	if (kids && !json_is_array(kids)) {
		if ((rc = warn(r, line, "node %lld: children is not an array: "
		    "ignored", (long long)v)) < 0)
			goto out;
	} else
		json_array_foreach(kids, x, k) {
			if (json_is_integer(k))
				edge(r, r->nnodes, json_integer_value(k), 0);
			else if ((rc = warn(r, line, "node %lld: children[%zu] "
			    "is not an integer: ignored", (long long)v, x)) < 0)
				goto out;
		}
	par = json_object_get(j, "parent");
	if (json_is_integer(par))
		edge(r, r->nnodes, json_integer_value(par), 1);
	else if (par)
		rc = warn(r, line, "node %lld: parent is not an integer: "
		    "ignored", (long long)v);
	r->nnodes++;
out:
	json_decref(j);
	return rc;
}

static int object(struct chrome_reader *r, int depth);

/*
 * A tree under "head": a sampling heap profile (nodes with a callFrame,
 * node --heap-prof), or a .cpuprofile of the layout V8 wrote until 2016
 * (nodes with their functionName, "timestamps"), which DevTools still
 * loads and saves in the layout read here.
 */
static int
head(struct chrome_reader *r)
{
	json_t *j;
	int heap;

	if (!(j = decode(r)))
		return -1;
	heap = json_object_get(j, "callFrame") != NULL;
	json_decref(j);
	if (heap)
		return fold_seterr("%s: a V8 sampling heap profile "
		    "(.heapprofile), not a .cpuprofile", r->file);
	return fold_seterr("%s: a .cpuprofile of the layout before 2016 (a "
	    "\"head\" tree), which is not read: load it in Chrome DevTools "
	    "and save it again", r->file);
}

/* The value of key (len n) of an object at nesting depth. */
static int
field(struct chrome_reader *r, const char *key, size_t n, int depth)
{
	json_t *j;
	int rc;
	int64_t v;

#define IS(s) (n == sizeof s - 1 && memcmp(key, s, n) == 0)
	if (IS("nodes") || IS("samples") || IS("timeDeltas")) {
		int *seen = IS("nodes") ? &r->seen_nodes : IS("samples") ?
		    &r->seen_samples : &r->seen_deltas;
		char msg[64];
		if (*seen) {
			snprintf(msg, sizeof msg, "\"%s\" given twice", key);
			return bad(r, r->p, msg);
		}
		*seen = 1;
		if (IS("nodes"))
			return array(r, node);
		if (IS("samples")) {
			r->samples_line = lineof(r, r->p);
			return array(r, sample);
		}
		r->deltas_line = lineof(r, r->p);
		return array(r, delta);
	}
	if (IS("startTime") || IS("endTime")) {
		const char *at = r->p;
		if ((rc = integer(r, &v)) < 0)
			return -1;
		if (rc == 0)
			return warn(r, lineof(r, at), "%s is not an integer: "
			    "ignored", IS("startTime") ? "startTime" :
			    "endTime");
		if (IS("startTime"))
			r->have_start = 1, r->start = v;
		else
			r->have_end = 1, r->endtime = v;
		return 0;
	}
	if ((IS("profile") || IS("result")) && depth < 2 && r->p < r->end &&
	    *r->p == '{')
		return object(r, depth + 1);
	/* V8's other JSON: named, not read as a profile without samples */
	if (IS("snapshot"))
		return fold_seterr("%s: a V8 heap snapshot, not a .cpuprofile",
		    r->file);
	if (IS("head"))
		return head(r);
#undef IS
	if (!(j = decode(r)))
		return -1;
	json_decref(j);
	return 0;
}

static int
object(struct chrome_reader *r, int depth)
{
	json_t *k;
	char key[16];
	size_t n;
	int rc;

	if (r->p == r->end || *r->p != '{')
		return bad(r, r->p, "not a .cpuprofile: a JSON object "
		    "expected");
	r->p++;
	ws(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		return 0;
	}
	for (;;) {
		ws(r);
		if (r->p == r->end || *r->p != '"')
			return bad(r, r->p, r->p == r->end ? "not valid JSON: "
			    "the input ends inside an object" :
			    "not valid JSON: a key expected");
		if (!(k = decode(r)))
			return -1;
		/* only short keys matter */
		n = json_string_length(k);
		if (n >= sizeof key)
			n = 0;
		memcpy(key, json_string_value(k), n);
		key[n] = '\0';
		json_decref(k);
		ws(r);
		if (r->p == r->end || *r->p != ':')
			return bad(r, r->p, "not valid JSON: ':' expected");
		r->p++;
		ws(r);
		if ((rc = field(r, key, n, depth)) < 0)
			return rc;
		ws(r);
		if (r->p == r->end)
			return bad(r, r->p, "not valid JSON: the input ends "
			    "inside an object");
		if (*r->p == '}') {
			r->p++;
			return 0;
		}
		if (*r->p != ',')
			return bad(r, r->p, "not valid JSON: ',' or '}' "
			    "expected in an object");
		r->p++;
	}
}

/* Sets each node's parent from the edges as written. */
static int
link(struct chrome_reader *r)
{
	size_t i;
	uint32_t child, parent, other;
	struct edge *e;

	for (i = 0; i < r->nedges; i++) {
		e = &r->edges[i];
		other = lookup(r, e->to);
		if (other == NONE) {
			if (warn(r, r->nodes[e->from].line, "node %lld names "
			    "%s %lld, which is not a node: ignored",
			    (long long)r->nodes[e->from].id, e->parentfield ?
			    "parent" : "child", (long long)e->to) < 0)
				return -2;
			continue;
		}
		child = e->parentfield ? e->from : other;
		parent = e->parentfield ? other : e->from;
		if (r->nodes[child].parent == NONE)
			r->nodes[child].parent = parent;
		else if (r->nodes[child].parent != parent &&
		    warn(r, r->nodes[e->from].line, "node %lld has parents "
		    "%lld and %lld: the second is ignored",
		    (long long)r->nodes[child].id,
		    (long long)r->nodes[r->nodes[child].parent].id,
		    (long long)r->nodes[parent].id) < 0)
			return -2;
	}
	return 0;
}

/* Each node's depth from its root; nodes whose parents go round: CYCLE. */
static void
depths(struct chrome_reader *r)
{
	size_t i, n;
	uint32_t k;
	int32_t d;

	r->chain = fold_grow(r->chain, &r->chaincap, r->nnodes,
	    sizeof *r->chain);
	for (i = 0; i < r->nnodes; i++) {
		if (r->nodes[i].depth != UNKNOWN)
			continue;
		n = 0;
		k = i;
		while (r->nodes[k].depth == UNKNOWN) {
			r->nodes[k].depth = INPROG;
			r->chain[n++] = k;
			if (r->nodes[k].parent == NONE)
				break;
			k = r->nodes[k].parent;
		}
		if (r->nodes[k].depth == INPROG && r->nodes[k].parent == NONE)
			d = 0;		/* the chain reached a root */
		else
			d = r->nodes[k].depth;	/* CYCLE, or a depth */
		while (n > 0) {
			k = r->chain[--n];
			if (d == INPROG || d == CYCLE)
				d = CYCLE;
			else if (d < CHROME_MAX_DEPTH + 2)
				d++;
			r->nodes[k].depth = d;
		}
	}
}

/* Credits a sample (index i) to the node it names. */
static int
credit(struct chrome_reader *r, size_t i, uint64_t c)
{
	int64_t id = r->samples.v[i];
	struct fold_count fc = fold_count_u64(c);
	uint32_t k;

	r->stats.samples++;
	k = id == BADID ? NONE : lookup(r, id);
	if (k == NONE) {
		r->stats.dropped++;
		if (fold_count_add(&r->stats.droptotal, &fc) < 0)
			return fold_seterr("%s: %s", r->file, fold_err()), -2;
		if (id != BADID && warn(r, r->samples_line, "samples[%zu]: no "
		    "node has id %lld: sample dropped", i, (long long)id) < 0)
			return -2;
		return 0;
	}
	if (r->nodes[k].credit > UINT64_MAX - c)
		return fold_seterr("%s: node %lld: count out of range",
		    r->file, (long long)id), -2;
	r->nodes[k].credit += c;
	r->nodes[k].nsamp++;
	return 0;
}

struct stamp {
	int64_t t;
	size_t i;
};

static int
bystamp(const void *a, const void *b)
{
	const struct stamp *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Credits every sample its time (see chrome.h). */
static int
timed(struct chrome_reader *r)
{
	size_t i, n = r->samples.n;
	int64_t t = r->have_start ? r->start : 0, *ts = r->deltas.v;
	struct stamp *order = NULL;
	int sorted = 1, rc = 0;
	uint64_t c;

	if (r->deltas.n != n || (!r->seen_deltas && n))
		return fold_seterr("%s: --time needs a timeDeltas entry for "
		    "each sample: %zu for %zu samples", r->file, r->deltas.n,
		    n);
	/* timestamps in place of the deltas */
	for (i = 0; i < n; i++) {
		if (__builtin_add_overflow(t, ts[i], &t))
			return fold_seterr("%s: timeDeltas[%zu]: the time of "
			    "the sample is out of range", r->file, i);
		if (i > 0 && t < ts[i - 1])
			sorted = 0;
		ts[i] = t;
	}
	if (!sorted) {
		order = fold_reallocarray(NULL, n, sizeof *order);
		for (i = 0; i < n; i++) {
			order[i].t = ts[i];
			order[i].i = i;
		}
		qsort(order, n, sizeof *order, bystamp);
	}
	for (i = 0; i < n && rc == 0; i++) {
		size_t cur = order ? order[i].i : i;
		if (i + 1 < n)
			c = (uint64_t)(order ? order[i + 1].t : ts[i + 1]) -
			    (uint64_t)ts[cur];
		else
			c = r->have_end && r->endtime > ts[cur] ?
			    (uint64_t)r->endtime - (uint64_t)ts[cur] : 0;
		rc = credit(r, cur, c);
	}
	free(order);
	return rc;
}

/* Adds each sampled node's stack with its credit. */
static int
emit(struct chrome_reader *r)
{
	size_t i, nf;
	uint32_t k;
	struct node *nd;
	struct fold_count c;
	const char *why;
	char deep[64];

	snprintf(deep, sizeof deep, "its stack is deeper than %d frames",
	    CHROME_MAX_DEPTH);
	depths(r);
	r->ids = fold_grow(r->ids, &r->idcap, CHROME_MAX_DEPTH + 1,
	    sizeof *r->ids);
	for (i = 0; i < r->nnodes; i++) {
		nd = &r->nodes[i];
		if (nd->nsamp == 0)
			continue;
		c = fold_count_u64(nd->credit);
		why = NULL;
		nf = 0;
		if (nd->depth == CYCLE)
			why = "its parents go round in a cycle";
		else if (nd->depth > CHROME_MAX_DEPTH + 1)
			why = deep;
		else {
			for (k = i; k != NONE; k = r->nodes[k].parent)
				if (r->nodes[k].parent != NONE ||
				    !r->nodes[k].isroot)
					nf++;
			if (nf == 0)
				why = "it is the (root) node";
			else if (nf > CHROME_MAX_DEPTH)
				why = deep;
		}
		if (why) {
			r->stats.dropped += nd->nsamp;
			if (fold_count_add(&r->stats.droptotal, &c) < 0)
				return fold_seterr("%s: %s", r->file,
				    fold_err()), -2;
			if (warn(r, nd->line, "node %lld: %s: its %llu "
			    "sample%s dropped", (long long)nd->id, why,
			    (unsigned long long)nd->nsamp,
			    nd->nsamp == 1 ? "" : "s") < 0)
				return -2;
			continue;
		}
		if (nd->credit == 0)
			continue;
		size_t j = nf;
		for (k = i; k != NONE; k = r->nodes[k].parent)
			if (r->nodes[k].parent != NONE || !r->nodes[k].isroot)
				r->ids[--j] = r->nodes[k].frame;
		if (fold_stacks_add(r->st, r->ids, nf, &c) < 0 ||
		    fold_count_add(&r->stats.total, &c) < 0)
			return fold_seterr("%s: %s", r->file, fold_err()), -2;
	}
	return 0;
}

static int
finish(struct chrome_reader *r)
{
	size_t i;
	int rc;

	if (!r->seen_nodes)
		return fold_seterr("%s: not a .cpuprofile: no \"nodes\" array",
		    r->file);
	if (!r->seen_samples)
		return fold_seterr("%s: no \"samples\" array (a profile of an "
		    "older format?)", r->file);
	if (r->opt.time && (rc = timed(r)) < 0)
		return rc;
	if ((rc = link(r)) < 0)
		return rc;
	if (!r->opt.time)
		for (i = 0; i < r->samples.n; i++)
			if ((rc = credit(r, i, 1)) < 0)
				return rc;
	return emit(r);
}

/* How much of an input check_head looks at: what fold_in_peek gives. */
#define HEAD_SIZE ((size_t)64 << 10)

/*
 * Every .cpuprofile is a JSON object, and JSON text has no control bytes
 * but blanks: what begins otherwise (/dev/zero, random bytes, a folded
 * file) fails at once, not after the whole input is read. A head of
 * blanks only is left to the reader.
 */
static int
check_head(struct chrome_reader *r, const char *p, size_t n)
{
	const char *e = p + n;
	unsigned long long line = 1;

	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	for (; p < e && (*p == ' ' || *p == '\n' || *p == '\r' ||
	    *p == '\t'); p++)
		line += *p == '\n';
	if (p == e)
		return 0;
	if (*p != '{')
		return fold_seterr_at(r->file, line, "not a .cpuprofile: a "
		    "JSON object expected");
	for (; p < e; p++) {
		unsigned char c = (unsigned char)*p;
		if (c >= 0x20 || c == '\t' || c == '\r')
			continue;
		if (c != '\n')
			return fold_seterr_at(r->file, line, "not valid JSON: "
			    "control byte 0x%02x", c);
		line++;
	}
	return 0;
}

static int
chrome_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct chrome_reader *r = rp;
	const char *head;
	char *buf;
	size_t len;
	int rc;

	r->file = fold_in_name(in);
	fold_in_set_limit(in, r->opt.max_size ? r->opt.max_size :
	    CHROME_MAX_SIZE);
	if (fold_in_peek(in, HEAD_SIZE, &head, &len) < 0 ||
	    check_head(r, head, len) < 0 ||
	    fold_in_readall(in, &buf, &len) < 0)
		return -1;
	r->diag = diag;
	r->buf = r->p = r->linep = buf;
	r->end = buf + len;
	r->line = 1;
	r->seen_nodes = r->seen_samples = r->seen_deltas = 0;
	r->have_start = r->have_end = 0;
	r->samples_line = r->deltas_line = 0;
	r->nnodes = r->nedges = r->samples.n = r->deltas.n = 0;
	r->hlen = 0;
	if (r->hvals)
		memset(r->hvals, 0, r->hcap * sizeof *r->hvals);

	if (len >= 3 && memcmp(r->p, "\xef\xbb\xbf", 3) == 0)
		r->p += 3;
	ws(r);
	rc = object(r, 0);
	if (rc == 0) {
		ws(r);
		if (r->p != r->end)
			rc = bad(r, r->p, "not valid JSON: more after the "
			    "profile object");
	}
	if (rc == 0)
		rc = finish(r);
	if (rc == 0)
		r->stats.profiles++;
	free(buf);
	return rc;
}

int
chrome_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *e = head + n;

	(void)eof;
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	if (p == e || *p != '{')
		return 0;
	if (memmem(p, e - p, "\"callFrame\"", 11))
		return 2;
	if (memmem(p, e - p, "\"nodes\"", 7))
		return 1;
	/* the layout before 2016, to be named */
	if (memmem(p, e - p, "\"head\"", 6) &&
	    memmem(p, e - p, "\"functionName\"", 14))
		return 1;
	return 0;
}

static int
chrome_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	const struct chrome_reader *r = rp;
	char msg[512], b[FOLD_COUNT_BUFSZ];

	if (r->stats.dropped) {
		fold_count_fmt(&r->stats.droptotal, b);
		snprintf(msg, sizeof msg, "%llu of %llu samples dropped%s%s%s",
		    (unsigned long long)r->stats.dropped,
		    (unsigned long long)r->stats.samples,
		    r->opt.time ? " (" : "", r->opt.time ? b : "",
		    r->opt.time ? " microseconds)" : "");
		say(arg, msg);
	}
	/* an input with no sample is the converters' check to report
	   (collapse_check_end), as for every format */
	return 0;
}

/* a profile read whole, even without samples: the summary says so */
static uint64_t
chrome_records(const void *r)
{
	return chrome_reader_stats(r)->profiles;
}

#define OFF(field) offsetof(struct chrome_opt, field)

static const char *
chrome_unit(const void *rp)
{
	/* --time credits each sample its microseconds (timeDeltas) */
	return ((const struct chrome_reader *)rp)->opt.time ? "microseconds" :
	    NULL;
}

static const struct fold_option chrome_options[] = {
	{ .name = "lines", .kind = FOLD_OPT_FLAG, .off = OFF(lines),
	    .value = 1,
	    .help = "frames \"name url:line\" where a url is known" },
	{ .name = "max-size", .arg = "BYTES", .kind = FOLD_OPT_SIZE,
	    .off = OFF(max_size),
	    .help = "refuse an input larger than BYTES (K, M, G, T)" },
	{ .name = "no-jit", .kind = FOLD_OPT_FLAG, .off = OFF(no_jit),
	    .value = 1,
	    .help = "no \"_[j]\" on functions of the profiled scripts" },
	{ .name = "time", .kind = FOLD_OPT_FLAG, .off = OFF(time),
	    .value = 1,
	    .help = "count microseconds, not samples" },
	{ .name = NULL }
};

#undef OFF

static const struct chrome_opt chrome_defaults = CHROME_OPT_INIT;

const struct format chrome_format = {
	.name = "chrome",
	.tool = "stackcollapse-chrome",
	.what = "V8 .cpuprofile JSON (node --cpu-prof, Chrome DevTools)",
	.input = "a V8 .cpuprofile",
	.kind = FOLD_DOCUMENT,
	.one = "entry",
	.many = "entries",
	.detect = chrome_detect,
	.options = chrome_options,
	.optsize = sizeof(struct chrome_opt),
	.defaults = &chrome_defaults,
	.open = chrome_open,
	.read = chrome_read,
	.unit = chrome_unit,
	.records = chrome_records,
	.finish = chrome_finish,
	.close = chrome_close,
};
