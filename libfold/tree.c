#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "jobs.h"
#include "tree.h"

/*
 * The tree grows along one open path from the root. Feeding a stack
 * closes the open nodes it does not share, adds the missing ones as last
 * children, and counts at the leaf. Because a node's descendants are
 * created after it and before anything else, dropping a closed subtree is
 * truncating the node array at the subtree's root.
 */
struct level {
	uint32_t node;		/* open node at this depth */
	uint32_t last;		/* its last child so far, 0 if none */
	uint32_t prev;		/* its previous sibling, 0 if none */
};

struct fold_tree {
	struct fold_intern *frames;
	int ncols;
	double min_total;
	struct fold_node *nodes;
	size_t len, cap;
	struct level *path;	/* path[0] is the root */
	size_t npath, cappath;
	uint32_t maxdepth;
};

static double
sumcols(const struct fold_tree *t, const struct fold_count *c)
{
	double s = 0;
	int i;

	for (i = 0; i < t->ncols; i++)
		s += fold_count_val(&c[i]);
	return s;
}

static uint32_t
newnode(struct fold_tree *t, uint32_t frame, uint32_t parent, uint32_t depth)
{
	struct fold_node *n;

	t->nodes = fold_big_grow(t->nodes, &t->cap, t->len + 1,
	    sizeof *t->nodes);
	n = &t->nodes[t->len];
	memset(n, 0, sizeof *n);
	n->frame = frame;
	n->parent = parent;
	n->depth = depth;
	return t->len++;
}

struct fold_tree *
fold_tree_new(struct fold_intern *frames, int ncols, double min_total)
{
	struct fold_tree *t = fold_calloc(1, sizeof *t);

	t->frames = frames;
	t->ncols = ncols < 1 ? 1 : ncols > FOLD_MAXCOLS ? FOLD_MAXCOLS : ncols;
	t->min_total = min_total;
	newnode(t, FOLD_NOFRAME, 0, 0);
	t->cappath = 64;
	t->path = fold_calloc(t->cappath, sizeof *t->path);
	t->npath = 1;
	return t;
}

void
fold_tree_free(struct fold_tree *t)
{
	if (!t)
		return;
	fold_big_free(t->nodes, t->cap, sizeof *t->nodes);
	free(t->path);
	free(t);
}

/* Closes the deepest open node: its total is final; prune or keep it. */
static int
closetop(struct fold_tree *t)
{
	struct level *lv = &t->path[t->npath - 1], *up = lv - 1;
	struct fold_node *n = &t->nodes[lv->node], *p = &t->nodes[up->node];
	int c;

	for (c = 0; c < t->ncols; c++) {
		if (fold_count_add(&n->total[c], &n->self[c]) < 0 ||
		    fold_count_add(&p->total[c], &n->total[c]) < 0)
			return -1;
	}
	if (t->min_total > 0 && sumcols(t, n->total) < t->min_total) {
		t->len = lv->node;
		up->last = lv->prev;
		if (lv->prev)
			t->nodes[lv->prev].next = 0;
	}
	t->npath--;
	return 0;
}

int
fold_tree_add(struct fold_tree *t, const uint32_t *ids, size_t n,
    const struct fold_count *counts)
{
	size_t k = 0, d;
	int c;

	while (k + 1 < t->npath && k < n && t->nodes[t->path[k + 1].node].frame
	    == ids[k])
		k++;
	while (t->npath > k + 1)
		if (closetop(t) < 0)
			return -1;
	t->path = fold_grow(t->path, &t->cappath, n + 1, sizeof *t->path);
	for (d = k; d < n; d++) {
		struct level *up = &t->path[d], *lv = &t->path[d + 1];
		if (t->len >= UINT32_MAX)
			return fold_seterr("call tree too large");
		uint32_t x = newnode(t, ids[d], up->node, d + 1);
		if (up->last)
			t->nodes[up->last].next = x;
		lv->prev = up->last;
		up->last = x;
		lv->node = x;
		lv->last = 0;
		t->npath++;
	}
	struct fold_node *leaf = &t->nodes[t->path[n].node];
	struct fold_count sum[FOLD_MAXCOLS];
	for (c = 0; c < t->ncols; c++) {
		sum[c] = leaf->self[c];
		if (fold_count_add(&sum[c], &counts[c]) < 0)
			return -1;
	}
	memcpy(leaf->self, sum, t->ncols * sizeof *sum);
	return 0;
}

/* Closes every open node but the root. */
static int
closeall(struct fold_tree *t)
{
	while (t->npath > 1)
		if (closetop(t) < 0)
			return -1;
	return 0;
}

int
fold_tree_finish(struct fold_tree *t)
{
	struct fold_node *root = &t->nodes[0];
	size_t i;
	int c;

	if (closeall(t) < 0)
		return -1;
	/* the root is never pruned; its total is all that was fed */
	for (c = 0; c < t->ncols; c++)
		if (fold_count_add(&root->total[c], &root->self[c]) < 0)
			return -1;
	t->path[0].last = 0;
	t->maxdepth = 0;
	for (i = 0; i < t->len; i++)
		if (t->nodes[i].depth > t->maxdepth)
			t->maxdepth = t->nodes[i].depth;
	return 0;
}

/* How many stacks ahead of the one fed their frames are fetched. */
enum { AHEAD = 8 };

static size_t
lcp(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i;

	for (i = 0; i < na && i < nb && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * Feeds the stacks [lo, hi) of st, sorted, to t, and closes its nodes.
 * The stacks before lo and from hi on share no first frame with them.
 */
static int
feed(struct fold_tree *t, struct fold_stacks *st, size_t lo, size_t hi)
{
	size_t i, n, nn, before = 0, after;
	const uint32_t *ids, *next = NULL;

	ids = lo < hi ? fold_stacks_ids(st, lo, &n) : NULL;
	for (i = lo; i < hi; i++, ids = next, n = nn) {
		const struct fold_count *c = fold_stacks_counts(st, i);
		size_t keep = n;
		/* the frames of each next stack are a cache miss, nine
		   tenths of this loop: asked for early */
		fold_stacks_prefetch_ids(st, i + AHEAD);
		if (i + 1 < hi) {
			next = fold_stacks_ids(st, i + 1, &nn);
			after = lcp(ids, n, next, nn);
		} else {
			after = 0;
		}
		/*
		 * A stack below the minimum is cut one frame past what it
		 * shares with its neighbours: that frame's node is its own
		 * and will be pruned, leaving the count in its parent's
		 * total as the whole stack would, for far less work.
		 */
		if (t->min_total > 0 && sumcols(t, c) < t->min_total) {
			keep = (before > after ? before : after) + 1;
			if (keep > n)
				keep = n;
		}
		before = after;
		if (fold_tree_add(t, ids, keep, c) < 0)
			return -1;
	}
	return closeall(t);
}

/*
 * Appends the nodes of p, fed the stacks after t's, to t: the subtrees
 * of the root's children, whose indices move by where they land.
 */
static int
append(struct fold_tree *t, const struct fold_tree *p)
{
	struct fold_node *root = &t->nodes[0];
	const struct fold_node *proot = &p->nodes[0];
	size_t m = p->len - 1, off = t->len - 1, i;
	int c;

	for (c = 0; c < t->ncols; c++)
		if (fold_count_add(&root->self[c], &proot->self[c]) < 0 ||
		    fold_count_add(&root->total[c], &proot->total[c]) < 0)
			return -1;
	if (m == 0)
		return 0;
	if (t->len + m >= UINT32_MAX)
		return fold_seterr("call tree too large");
	t->nodes = fold_big_grow(t->nodes, &t->cap, t->len + m,
	    sizeof *t->nodes);
	memcpy(t->nodes + t->len, p->nodes + 1, m * sizeof *t->nodes);
	for (i = t->len; i < t->len + m; i++) {
		if (t->nodes[i].parent)
			t->nodes[i].parent += off;
		if (t->nodes[i].next)
			t->nodes[i].next += off;
	}
	/* p's first node is its root's first child, its path's last the last */
	if (t->path[0].last)
		t->nodes[t->path[0].last].next = t->len;
	t->path[0].last = p->path[0].last + off;
	t->len += m;
	return 0;
}

/*
 * Below this many stacks a tree is built on one thread: starting
 * threads costs more than they save.
 */
enum { TREE_JOBS_MIN = 8192 };

/* What the threads that build the parts of a tree share. */
struct tparts {
	struct fold_stacks *st;
	struct fold_tree **tree;	/* part k's, tree[0] the caller's */
	size_t *from;			/* part k: stacks [from[k], from[k + 1]) */
	int *rc;
	char **err;			/* a failed part's message */
};

static void
build_part(void *arg, size_t k)
{
	const struct tparts *tp = arg;

	if ((tp->rc[k] = feed(tp->tree[k], tp->st, tp->from[k],
	    tp->from[k + 1])) < 0)
		tp->err[k] = fold_strdup(fold_err());
}

/* The first frame of stack i, FOLD_NOFRAME for none. */
static uint32_t
first(const struct fold_stacks *st, size_t i)
{
	size_t n;
	const uint32_t *ids = fold_stacks_ids(st, i, &n);

	return n ? ids[0] : FOLD_NOFRAME;
}

/*
 * The first stack from i on whose first frame is not that of stack
 * i - 1, or len: stacks sorted, those of a first frame are together.
 */
static size_t
next_root(const struct fold_stacks *st, size_t i, size_t len)
{
	uint32_t f = first(st, i - 1);
	size_t lo = i, hi = len, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (first(st, mid) == f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The tree of st, sorted, in parts on the threads: the stacks of each
 * root's child are a subtree of their own, built apart from the others,
 * in parts of about equal numbers of stacks, and the parts' nodes are
 * appended in order, as one thread would have made them. The counts are
 * integers whose sum fits: added in any order, they give the same sums.
 */
static int
build_parts(struct fold_tree *t, struct fold_stacks *st, unsigned jobs)
{
	size_t len = fold_stacks_len(st), np = (size_t)jobs * 4, n = 0, k, c;
	struct tparts tp = { st, NULL, NULL, NULL, NULL };
	int rc = 0;

	tp.from = fold_calloc(np + 1, sizeof *tp.from);
	for (k = 1; k < np; k++) {
		c = next_root(st, k * len / np > tp.from[n] ? k * len / np :
		    tp.from[n] + 1, len);
		if (c < len && c > tp.from[n])
			tp.from[++n] = c;
	}
	tp.from[++n] = len;
	tp.tree = fold_calloc(n, sizeof *tp.tree);
	tp.rc = fold_calloc(n, sizeof *tp.rc);
	tp.err = fold_calloc(n, sizeof *tp.err);
	tp.tree[0] = t;
	for (k = 1; k < n; k++)
		tp.tree[k] = fold_tree_new(t->frames, t->ncols, t->min_total);
	fold_jobs(n, jobs, build_part, &tp);
	for (k = 0; k < n; k++) {
		if (rc == 0 && tp.rc[k] < 0)
			rc = fold_seterr("%s", tp.err[k]);
		else if (rc == 0 && k > 0)
			rc = append(t, tp.tree[k]);
		if (k > 0)
			fold_tree_free(tp.tree[k]);
		free(tp.err[k]);
	}
	free(tp.tree);
	free(tp.rc);
	free(tp.err);
	free(tp.from);
	return rc;
}

struct fold_tree *
fold_tree_from_stacks(struct fold_stacks *st, double min_total,
    unsigned jobs)
{
	struct fold_tree *t = fold_tree_new(fold_stacks_frames(st),
	    fold_stacks_ncols(st), min_total);
	size_t len = fold_stacks_len(st);
	uint64_t sum;
	int rc;

	fold_stacks_sort_jobs(st, FOLD_ORDER_FRAMES, jobs);
	if (len >= TREE_JOBS_MIN && (jobs = fold_jobs_count(jobs)) > 1 &&
	    fold_stacks_sum(st, &sum) == 0)
		rc = build_parts(t, st, jobs);
	else
		rc = feed(t, st, 0, len);
	if (rc < 0 || fold_tree_finish(t) < 0) {
		fold_tree_free(t);
		return NULL;
	}
	return t;
}

size_t
fold_tree_len(const struct fold_tree *t)
{
	return t->len;
}

const struct fold_node *
fold_tree_node(const struct fold_tree *t, size_t i)
{
	return &t->nodes[i];
}

uint32_t
fold_tree_maxdepth(const struct fold_tree *t)
{
	return t->maxdepth;
}
