#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/chrome.h"
#include "formats/json.h"

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
	struct json *json;
	struct fold_diag *diag;
	int seen_nodes, seen_samples, seen_deltas, have_start, have_end;
	int nodes_done;		/* the nodes array has ended */
	int in;			/* enum key: the array (or head) read */
	int key;		/* enum key: the last key of the profile */
	size_t index;		/* of the element in the array read */
	int levels[3], nlevels;	/* depths of the profile's keys, wrapped */
	int top;		/* the input's object has begun */
	uint32_t root;		/* a frame put above every stack, or NONE */
	int64_t start, endtime;
	uint64_t samples_line, deltas_line;

	struct node *nodes;
	size_t nnodes, nodecap;
	struct edge *edges;
	size_t nedges, edgecap;
	struct vec64 samples, deltas;	/* samples: those before the nodes */
	uint32_t *hits;		/* --time: each sample's node, or NONE */
	size_t nhits, hitcap;
	/*
	 * id -> index + 1 (0: empty): V8 numbers its nodes 1, 2, 3..., so
	 * an id below twice the nodes so far (and 64 Ki) is looked up in
	 * the array byid; any other in a table of open addressing
	 */
	uint32_t *byid;
	size_t nbyid, byidcap;
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
	r->root = NONE;
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
	free(r->byid);
	free(r->hkeys);
	free(r->hvals);
	free(r->name);
	free(r->ids);
	free(r->chain);
	free(r->hits);
	json_free(r->json);
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

	if (id >= 0 && (uint64_t)id < r->nbyid && r->byid[id])
		return r->byid[id] - 1;
	if (r->hlen == 0)
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

	if (lookup(r, id) != NONE)
		return -1;
	if (id >= 0 && (uint64_t)id < 2 * (uint64_t)r->nnodes + 65536) {
		if ((size_t)id >= r->nbyid) {
			r->byid = fold_grow(r->byid, &r->byidcap, (size_t)id + 1,
			    sizeof *r->byid);
			memset(r->byid + r->nbyid, 0, ((size_t)id + 1 -
			    r->nbyid) * sizeof *r->byid);
			r->nbyid = (size_t)id + 1;
		}
		r->byid[id] = index + 1;
		return 0;
	}
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

/* A counted warning about the input at line: 0, or -2 under --strict. */
#define warn(r, line, ...) \
	(fold_warn((r)->diag, (r)->file, (line), __VA_ARGS__) < 0 ? -2 : 0)

/* Credits a sample with c, to node k or, NONE, to what was dropped. */
static int
credit(struct chrome_reader *r, uint32_t k, uint64_t c)
{
	struct fold_count fc = fold_count_u64(c);

	r->stats.samples++;
	if (k == NONE) {
		r->stats.dropped++;
		if (fold_count_add(&r->stats.droptotal, &fc) < 0)
			return fold_seterr("%s: %s", r->file, fold_err()), -2;
		return 0;
	}
	if (r->nodes[k].credit > UINT64_MAX - c)
		return fold_seterr("%s: node %lld: count out of range",
		    r->file, (long long)r->nodes[k].id), -2;
	r->nodes[k].credit += c;
	r->nodes[k].nsamp++;
	return 0;
}

/*
 * The node that sample i (id, or BADID: not an integer, warned about)
 * hit, or NONE with a warning; then credited 1, or kept for --time.
 */
static int
hit(struct chrome_reader *r, size_t i, int64_t id)
{
	uint32_t k = id == BADID ? NONE : lookup(r, id);

	if (k == NONE && id != BADID && warn(r, r->samples_line, "samples"
	    "[%zu]: no node has id %lld: sample dropped", i, (long long)id) < 0)
		return -2;
	if (!r->opt.time)
		return credit(r, k, 1);
	r->hits = fold_grow(r->hits, &r->hitcap, r->nhits + 1,
	    sizeof *r->hits);
	r->hits[r->nhits++] = k;
	return 0;
}

/*
 * samples[i]. Once the nodes are read (V8 writes them first) a sample is
 * credited as it comes and only --time keeps anything of it (4 bytes);
 * before, its id is kept to be looked up at the end.
 */
static int
sample(struct chrome_reader *r, size_t i, const struct json_event *e)
{
	int64_t v;

	if (e->type != JSON_NUMBER || !json_int64(e->s, e->n, &v)) {
		v = BADID;
		if (warn(r, r->samples_line, "samples[%zu] is not an integer: "
		    "sample dropped", i) < 0)
			return -2;
	}
	if (r->nodes_done)
		return hit(r, i, v);
	push64(&r->samples, v);
	return 0;
}

static int
delta(struct chrome_reader *r, size_t i, const struct json_event *e)
{
	int64_t v;

	if (!r->opt.time)
		return 0;
	if (e->type != JSON_NUMBER || !json_int64(e->s, e->n, &v)) {
		v = 0;
		if (warn(r, r->deltas_line, "timeDeltas[%zu] is "
		    "not an integer: taken as 0", i) < 0)
			return -2;
	}
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

/* chrome.h; before node 16 the runtime's scripts were fs.js and the like */
int
chrome_user_script(const char *u, size_t n)
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
framename(struct chrome_reader *r, const struct json *j,
    const struct json_val *cf, const char *fn, size_t fl)
{
	const struct json_val *url = json_member(j, cf, "url");
	const struct json_val *ln = json_member(j, cf, "lineNumber");
	size_t n = 0, ul = 0;
	const char *u = NULL;
	char num[32];
	int nl = 0, mark = 0;
	int64_t line;

	if (fl == 0) {
		fn = "(anonymous)";
		fl = 11;
	}
	if (url && json_type(url) == JSON_STRING) {
		u = json_text(j, url, &ul);
		mark = !r->opt.no_jit && chrome_user_script(u, ul);
	}
	if (r->opt.lines && ul) {
		/* 0-based; one more past INT64_MAX still fits unsigned */
		if (json_val_int64(j, ln, &line) && line >= 0)
			nl = snprintf(num, sizeof num, ":%llu",
			    (unsigned long long)line + 1);
	} else
		u = NULL, ul = 0;
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
	fold_frame_clean(r->name, n);
	if (mark) {
		memcpy(r->name + n, "_[j]", 4);
		n += 4;
	}
	return fold_intern(r->frames, r->name, n);
}

/* nodes[i], whole, which began at line. */
static int
node(struct chrome_reader *r, struct json *j, size_t i,
    const struct json_val *v, uint64_t line)
{
	const struct json_val *cf, *fn, *kids, *par, *k;
	const char *name = "";
	struct node *nd;
	int64_t id, x;
	size_t fl = 0, c;

	if (json_type(v) != JSON_OBJECT)
		return warn(r, line, "nodes[%zu] is not an object: skipped", i);
	if (!json_val_int64(j, json_member(j, v, "id"), &id) || id < 0)
		return warn(r, line, "nodes[%zu]: no id, or not a "
		    "non-negative integer: node skipped", i);
	cf = json_member(j, v, "callFrame");
	fn = json_member(j, cf, "functionName");
	if (!cf || json_type(cf) != JSON_OBJECT ||
	    (fn && json_type(fn) != JSON_STRING))
		return warn(r, line, "node %lld: no callFrame with a string "
		    "functionName: node skipped", (long long)id);
	if (r->nnodes >= NONE - 1)
		return warn(r, line, "node %lld: too many nodes: node "
		    "skipped", (long long)id);
	if (insert(r, id, r->nnodes) < 0)
		return warn(r, line, "node %lld is listed twice: the second "
		    "is skipped", (long long)id);
	if (fn)
		name = json_text(j, fn, &fl);
	r->nodes = fold_grow(r->nodes, &r->nodecap, r->nnodes + 1,
	    sizeof *r->nodes);
	nd = &r->nodes[r->nnodes];
	memset(nd, 0, sizeof *nd);
	nd->id = id;
	nd->line = line;
	nd->parent = NONE;
	nd->depth = UNKNOWN;
	nd->frame = framename(r, j, cf, name, fl);
	nd->isroot = fl == 6 && memcmp(name, "(root)", 6) == 0;
	r->nnodes++;
	kids = json_member(j, v, "children");
	if (kids && json_type(kids) != JSON_ARRAY) {
		if (warn(r, line, "node %lld: children is not an array: "
		    "ignored", (long long)id) < 0)
			return -2;
	} else
		for (k = json_first(j, kids), c = 0; k;
		    k = json_next(j, k), c++) {
			if (json_val_int64(j, k, &x))
				edge(r, r->nnodes - 1, x, 0);
			else if (warn(r, line, "node %lld: children[%zu] "
			    "is not an integer: ignored", (long long)id, c) < 0)
				return -2;
		}
	par = json_member(j, v, "parent");
	if (json_val_int64(j, par, &x))
		edge(r, r->nnodes - 1, x, 1);
	else if (par)
		return warn(r, line, "node %lld: parent is not an integer: "
		    "ignored", (long long)id);
	return 0;
}

/* The keys of the profile object that are read. */
enum key { K_OTHER, K_NODES, K_SAMPLES, K_DELTAS, K_START, K_END,
    K_WRAP, K_SNAPSHOT, K_HEAD };

static enum key
keyof(const char *s, size_t n)
{
	static const struct {
		const char *s;
		enum key k;
	} keys[] = {
		{ "nodes", K_NODES }, { "samples", K_SAMPLES },
		{ "timeDeltas", K_DELTAS }, { "startTime", K_START },
		{ "endTime", K_END }, { "profile", K_WRAP },
		{ "result", K_WRAP }, { "snapshot", K_SNAPSHOT },
		{ "head", K_HEAD },
	};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i].s) == n && memcmp(keys[i].s, s, n) == 0)
			return keys[i].k;
	return K_OTHER;
}

/*
 * The value of a key of the profile object, at its first event. V8's
 * other JSON files are named at the key that tells them apart: a heap
 * snapshot's "snapshot"; a tree under "head", which is a sampling heap
 * profile (node --heap-prof) when its nodes have a callFrame and else
 * a .cpuprofile of the layout V8 wrote until 2016, which DevTools still
 * loads and saves in the layout read here.
 */
static int
value(struct chrome_reader *r, struct json *j, const struct json_event *e)
{
	int64_t v;
	int start = e->type == JSON_OBJECT || e->type == JSON_ARRAY;

	switch (r->key) {
	case K_NODES:
	case K_SAMPLES:
	case K_DELTAS:
		if (e->type != JSON_ARRAY)
			return json_fail(j, "not a .cpuprofile: \"%s\" is not "
			    "an array", r->key == K_NODES ? "nodes" :
			    r->key == K_SAMPLES ? "samples" : "timeDeltas");
		r->in = r->key;
		r->index = 0;
		if (r->key == K_SAMPLES)
			r->samples_line = json_line(j);
		else if (r->key == K_DELTAS)
			r->deltas_line = json_line(j);
		return 0;
	case K_START:
	case K_END:
		if (e->type != JSON_NUMBER || !json_int64(e->s, e->n, &v)) {
			if (warn(r, json_line(j), "%s is not an integer: "
			    "ignored", r->key == K_START ? "startTime" :
			    "endTime") < 0)
				return -2;
			return start ? JSON_SKIP : 0;
		}
		if (r->key == K_START)
			r->have_start = 1, r->start = v;
		else
			r->have_end = 1, r->endtime = v;
		return 0;
	case K_WRAP:
		/* {"profile":{...}} and {"id":N,"result":{"profile":...}} */
		if (e->type == JSON_OBJECT && r->nlevels < 3) {
			r->levels[r->nlevels++] = e->depth + 1;
			return 0;
		}
		break;
	case K_SNAPSHOT:
		return fold_seterr("%s: a V8 heap snapshot, not a .cpuprofile",
		    r->file);
	case K_HEAD:
		if (e->type == JSON_OBJECT) {
			r->in = K_HEAD;
			return 0;
		}
		return fold_seterr("%s: a .cpuprofile of the layout before 2016 "
		    "(a \"head\" tree), which is not read: load it in Chrome "
		    "DevTools and save it again", r->file);
	default:
		break;
	}
	return start ? JSON_SKIP : 0;
}

/* Each event of the input (json.h), the profile object's and within. */
static int
event(void *ctx, struct json *j, const struct json_event *e)
{
	struct chrome_reader *r = ctx;
	int level = r->nlevels ? r->levels[r->nlevels - 1] : 0;
	int start = e->type == JSON_OBJECT || e->type == JSON_ARRAY;

	if (e->depth == 0 && e->type != JSON_OBJECT && e->type != JSON_END)
		return json_fail(j, "not a .cpuprofile: a JSON object "
		    "expected");
	if (e->depth == 0 && e->type == JSON_OBJECT) {
		r->top = 1;
		r->levels[0] = 1;
		r->nlevels = 1;
		return 0;
	}
	if (r->in != K_OTHER) {
		if (e->type == JSON_END && e->depth == level) {
			if (r->in == K_NODES)
				r->nodes_done = 1;
			if (r->in == K_HEAD)
				return fold_seterr("%s: a .cpuprofile of the "
				    "layout before 2016 (a \"head\" tree), "
				    "which is not read: load it in Chrome "
				    "DevTools and save it again", r->file);
			r->in = K_OTHER;
			return 0;
		}
		switch (r->in) {
		case K_NODES:
			if (e->type == JSON_VALUE)
				return node(r, j, r->index++, e->v, e->line);
			return JSON_CAPTURE;
		case K_SAMPLES:
			return sample(r, r->index++, e) < 0 ? -2 :
			    start ? JSON_SKIP : 0;
		case K_DELTAS:
			return delta(r, r->index++, e) < 0 ? -2 :
			    start ? JSON_SKIP : 0;
		case K_HEAD:
			if (e->type == JSON_KEY && e->depth == level + 1 &&
			    e->n == 9 && memcmp(e->s, "callFrame", 9) == 0)
				return fold_seterr("%s: a V8 sampling heap "
				    "profile (.heapprofile), not a .cpuprofile",
				    r->file);
			return start ? JSON_SKIP : 0;
		default:
			return 0;
		}
	}
	if (e->type == JSON_END) {
		if (e->depth == level - 1 && r->nlevels > 0)
			r->nlevels--;
		return 0;
	}
	if (e->depth != level)
		return start ? JSON_SKIP : 0;
	if (e->type == JSON_KEY) {
		r->key = keyof(e->s, e->n);
		if (r->key == K_NODES || r->key == K_SAMPLES ||
		    r->key == K_DELTAS) {
			int *seen = r->key == K_NODES ? &r->seen_nodes :
			    r->key == K_SAMPLES ? &r->seen_samples :
			    &r->seen_deltas;
			if (*seen)
				return json_fail(j, "\"%.*s\" given twice",
				    (int)e->n, e->s);
			*seen = 1;
		}
		return 0;
	}
	return value(r, j, e);
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
	size_t i, n = r->nhits;
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
		rc = credit(r, r->hits[cur], c);
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
	r->ids = fold_grow(r->ids, &r->idcap, CHROME_MAX_DEPTH + 2,
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
		size_t j = nf + (r->root != NONE);
		for (k = i; k != NONE; k = r->nodes[k].parent)
			if (r->nodes[k].parent != NONE || !r->nodes[k].isroot)
				r->ids[--j] = r->nodes[k].frame;
		if (r->root != NONE)
			r->ids[--j] = r->root;
		if (fold_stacks_add(r->st, r->ids, nf + (r->root != NONE),
		    &c) < 0 ||
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
	/* samples that came before the nodes */
	for (i = 0; i < r->samples.n; i++)
		if ((rc = hit(r, i, r->samples.v[i])) < 0)
			return rc;
	if (r->opt.time && (rc = timed(r)) < 0)
		return rc;
	if ((rc = link(r)) < 0)
		return rc;
	return emit(r);
}

static int
chrome_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct chrome_reader *r = rp;
	int rc;

	r->file = fold_in_name(in);
	if (json_begin(in, r->opt.max_size ? r->opt.max_size : CHROME_MAX_SIZE,
	    "{", "a .cpuprofile") < 0)
		return -1;
	r->diag = diag;
	r->seen_nodes = r->seen_samples = r->seen_deltas = 0;
	r->nodes_done = r->have_start = r->have_end = 0;
	r->samples_line = r->deltas_line = 0;
	r->nnodes = r->nedges = r->samples.n = r->deltas.n = r->nhits = 0;
	r->in = r->key = K_OTHER;
	r->nlevels = r->top = 0;
	r->hlen = 0;
	if (r->hvals)
		memset(r->hvals, 0, r->hcap * sizeof *r->hvals);
	if (r->byid)
		memset(r->byid, 0, r->nbyid * sizeof *r->byid);
	if (!r->json)
		r->json = json_new(event, r);
	rc = json_read(r->json, in);
	if (rc == 0 && !r->top)
		rc = fold_seterr_at(r->file, 1, "not a .cpuprofile: a JSON "
		    "object expected");
	if (rc == 0)
		rc = finish(r);
	if (rc == 0)
		r->stats.profiles++;
	return rc;
}

/*
 * A profile inside another file (chrome.h): the state chrome_read sets
 * for one input, with samples kept as ids until the end, since nodes and
 * samples come in chunks.
 */
struct chrome_reader *
chrome_embed_new(const struct chrome_opt *opt, struct fold_stacks *st,
    const char *file, struct fold_diag *diag)
{
	struct chrome_reader *r = chrome_open(opt, st);

	r->file = file;
	r->diag = diag;
	r->seen_nodes = r->seen_samples = r->seen_deltas = 1;
	return r;
}

void
chrome_embed_chunk(struct chrome_reader *r, uint64_t line)
{
	r->samples_line = r->deltas_line = line;
}

int
chrome_embed_node(struct chrome_reader *r, struct json *j,
    const struct json_val *v, size_t i, uint64_t line)
{
	return node(r, j, i, v, line);
}

/* A json_val as the event it was, for the functions of a stream. */
static struct json_event
as_event(struct json *j, const struct json_val *v)
{
	struct json_event e = { .type = json_type(v) };

	if (e.type == JSON_NUMBER || e.type == JSON_STRING)
		e.s = json_text(j, v, &e.n);
	return e;
}

int
chrome_embed_sample(struct chrome_reader *r, struct json *j,
    const struct json_val *v, size_t i)
{
	struct json_event e = as_event(j, v);

	return sample(r, i, &e);
}

int
chrome_embed_delta(struct chrome_reader *r, struct json *j,
    const struct json_val *v, size_t i)
{
	struct json_event e = as_event(j, v);

	return delta(r, i, &e);
}

void
chrome_embed_times(struct chrome_reader *r, const int64_t *start,
    const int64_t *end)
{
	if (start)
		r->have_start = 1, r->start = *start;
	if (end)
		r->have_end = 1, r->endtime = *end;
}

int
chrome_embed_finish(struct chrome_reader *r, uint32_t root)
{
	r->root = root;
	return finish(r);
}

void
chrome_embed_free(struct chrome_reader *r)
{
	chrome_close(r);
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
	.id = &chrome_id,
	.kind = FOLD_DOCUMENT,
	.one = "entry",
	.many = "entries",
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
