/*
 * The merged call tree.
 *
 * A prefix tree of stacks: each node is a frame reached by one path from
 * the root, with its self count (samples that end there) and total count
 * (self plus all descendants), per column. Node 0 is the root: it has no
 * frame (FOLD_NOFRAME), depth 0, and its total is the profile's total.
 *
 * The tree is built by feeding stacks in order. A stack shares nodes with
 * the stack fed just before it as far as their frames agree, so feeding
 * stacks sorted in FOLD_ORDER_FRAMES order merges every common prefix and
 * gives each node its children in byte order of their names, as a flame
 * graph draws them; feeding stacks in their input order gives a flame
 * chart instead.
 *
 * Nodes are stored in preorder (a node's descendants follow it, before its
 * next sibling), so a plain loop over 0..len-1 visits the tree depth first
 * with no recursion, whatever its depth. A node is closed when a stack
 * leaves it; closed nodes whose total (summed over columns) is below the
 * tree's minimum are dropped with their subtrees, so memory follows what
 * will be drawn, not the input; their counts stay in their parent's total.
 */
#ifndef FOLD_TREE_H
#define FOLD_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "stacks.h"

struct fold_node {
	uint32_t frame;		/* interned name, FOLD_NOFRAME for the root */
	uint32_t parent;	/* index of the parent (0 for the root itself) */
	uint32_t next;		/* next sibling, 0 when last */
	uint32_t depth;		/* root is 0, its children 1, ... */
	struct fold_count self[FOLD_MAXCOLS];
	struct fold_count total[FOLD_MAXCOLS];
};

struct fold_tree;

/*
 * A tree with just the root. Subtrees whose total is below min_total (a
 * value compared with the sum of the columns) are dropped when closed;
 * 0 keeps every node.
 */
struct fold_tree *fold_tree_new(struct fold_intern *frames, int ncols,
    double min_total);
void fold_tree_free(struct fold_tree *t);

/*
 * Feeds one stack. Returns 0, or -1 with a message on integer overflow or
 * when the tree would pass 2^32-1 nodes.
 */
int fold_tree_add(struct fold_tree *t, const uint32_t *ids, size_t n,
    const struct fold_count *counts);

/*
 * Closes every open node (totals become final, pruning applies). Call it
 * after the last fold_tree_add and before reading nodes. Returns 0, or
 * -1 with a message on integer overflow.
 */
int fold_tree_finish(struct fold_tree *t);

/*
 * Builds the merged tree of a whole table: sorts st in FOLD_ORDER_FRAMES
 * order (on up to jobs threads, as fold_stacks_sort_jobs), feeds every
 * stack and finishes. NULL with a message on error.
 */
struct fold_tree *fold_tree_from_stacks(struct fold_stacks *st,
    double min_total, unsigned jobs);

size_t fold_tree_len(const struct fold_tree *t);
const struct fold_node *fold_tree_node(const struct fold_tree *t, size_t i);
/* Depth of the deepest node kept. */
uint32_t fold_tree_maxdepth(const struct fold_tree *t);

#endif
