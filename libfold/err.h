/*
 * Error messages and allocation.
 *
 * libfold and the formats never print and never exit, and their
 * functions fail in one way: 0 (or a pointer, a count, an index) on
 * success, -1 (or NULL) on failure with a message set by fold_seterr()
 * that the caller fetches with fold_err() and prints. A function that
 * needs more outcomes says what each value means in the comment above
 * its declaration, and the values it adds are not failures unless that
 * comment says so: a reader of struct format returns -2 when the whole
 * run must stop, not only its input (format.h); fold_merge returns 1
 * when some files could not be read but the others were merged; the
 * line readers return 1 for a line and 0 at the end. Predicates answer 1
 * or 0, and a lookup that answers "none" with -1 or NULL (csv_column,
 * pb_idmap_find, fold_nameattr_find) sets no message: that is an answer,
 * not a failure.
 *
 * Messages name the file and line where there is one ("a.folded:12: count
 * is not a number", as fold_seterr_at and fold_warn in diag.h word them);
 * the command adds its own name in front.
 */
#ifndef FOLD_ERR_H
#define FOLD_ERR_H

#include <stddef.h>

/*
 * Sets the message returned by fold_err() (printf format) and returns -1,
 * so that library code can say `return fold_seterr("...")`.
 */
int fold_seterr(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* The last message set; never NULL. Valid until the next fold_seterr(). */
const char *fold_err(void);

/*
 * A name or pattern in a message, s[0..n) cut to its first FOLD_CUT_MAX
 * bytes and "..." (a hostile name may be 100 MB long): the arguments of
 * "%.*s%s".
 */
#define FOLD_CUT_MAX 60
#define FOLD_CUT(s, n) (int)((n) > FOLD_CUT_MAX ? FOLD_CUT_MAX : (n)), (s), \
	(n) > FOLD_CUT_MAX ? "..." : ""

/*
 * Allocation. Running out of memory is the one failure libfold does not
 * return: these call the out-of-memory handler, which must not return.
 * The default handler calls abort(); commands install one that prints a
 * message and exits 1.
 */
void *fold_malloc(size_t n);
void *fold_calloc(size_t nmemb, size_t size);
void *fold_realloc(void *p, size_t n);
/* realloc to nmemb elements of size bytes, failing on multiplication overflow */
void *fold_reallocarray(void *p, size_t nmemb, size_t size);

/*
 * Makes room for need elements of size bytes in the array p of *cap
 * elements (p NULL and *cap 0 at first): returns p itself when need <=
 * *cap, else p reallocated to twice *cap elements (64 at first), or to
 * need when that is more, and *cap set to that. The elements kept keep
 * their values; the new ones are not initialised. Appending one element
 * at a time so costs amortised constant time.
 */
void *fold_grow_to(void *p, size_t *cap, size_t need, size_t size);

/*
 * fold_grow_to, its test inline: the call is paid only when the array
 * grows, not on every element appended (a call per node was 0.7% of
 * rendering a flame graph).
 */
static inline void *
fold_grow(void *p, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? p : fold_grow_to(p, cap, need, size);
}

/*
 * Big arrays: those that grow to megabytes (a stack table's frames, its
 * entries and hash slots, a frame table, a call tree, a cache), and the
 * buffers of 16 KiB and more that are made again and again (an input's,
 * the output's, a frame table's blocks of names, a sort's scratch).
 *
 * They are on transparent huge pages where the system gives them
 * (madvise): a first touch costs a page fault for every 2 MiB, not for
 * every 4 KiB. A fault is not cheap: 0.2 us on a bare machine, about 10
 * us in some virtual ones, where filling 64 MiB took 270 ms on small
 * pages and 7 ms on huge ones.
 *
 * Past FOLD_BIG bytes, half a huge page, an array is a mapping of its
 * own. It grows by moving its pages (mremap), not by copying them;
 * freed, it is kept (8 MiB of them at most) for the next array of its
 * length, on any thread. From 16 KiB to FOLD_BIG it is a block of the
 * pool: huge pages that such arrays share, cut into blocks of powers of
 * two (err.c). Its own mapping would take a whole huge page; malloc's
 * block, on small pages, is copied to fresh pages at each growth. Below
 * 16 KiB, where the system has no such calls, and where the address
 * sanitizer watches the heap (it knows the bounds of malloc's blocks
 * only), it is malloc's.
 *
 * Collapsing a perf capture of 85 MB, with mappings from 512 KiB and
 * malloc's blocks below (no pool), took 717 page faults and 14.9 MB of
 * memory; with a pool from 64 KiB, 377 and 11.4 MB, and 4% less time.
 * With two threads, 1,446 and 21.3 MB against 567 and 16.2 MB, 13% less
 * processor time. Merging 100 small profiles, whose decoded tables are
 * big arrays too, took 220 faults with the pool from 64 KiB, 168 from
 * 16 KiB. The buffers as big arrays too, the capture took 192 faults
 * instead of 360, and 159 instead of 494 with two threads, 7% less
 * time: a 4 KiB page faulted costs 10 to 15 us here, even one the
 * process had just freed.
 *
 * Which of the three an array is follows from its size in bytes, so every
 * call passes what the caller keeps anyway: its capacity, in elements of
 * size bytes. An array is handled by these calls only, from its first
 * allocation to its free.
 */
#define FOLD_BIG ((size_t)1 << 20)

/* fold_grow_to for a big array */
void *fold_big_grow_to(void *p, size_t *cap, size_t need, size_t size);

/* The big array p grown to a capacity of n elements exactly. */
void *fold_big_resize(void *p, size_t *cap, size_t n, size_t size);

static inline void *
fold_big_grow(void *p, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? p : fold_big_grow_to(p, cap, need, size);
}

/*
 * The pages of the big array src (scap elements of size bytes) moved,
 * not copied, to follow the first used elements of the big array dst (of
 * *cap): from element *at on, the first past used where whole pages
 * begin. src is dst's part then, not to be freed. Returns dst, moved
 * perhaps, *cap its capacity; NULL, nothing changed, when either is not
 * a mapping of its own (small, or no such system call).
 */
void *fold_big_adopt(void *dst, size_t *cap, size_t used, void *src,
    size_t scap, size_t size, size_t *at);

/*
 * A big array of nmemb elements of size bytes, its capacity nmemb: not
 * initialised (for an array its caller fills at once), or all zero (a
 * mapping comes zeroed from the system, with no page written).
 */
void *fold_big_alloc(size_t nmemb, size_t size);
void *fold_big_calloc(size_t nmemb, size_t size);

/* Frees the big array p of cap elements of size bytes. */
void fold_big_free(void *p, size_t cap, size_t size);

/*
 * The same, its memory given back to the system at once, never kept for
 * the next array: a buffer read once, whose pages should not weigh on
 * the rest of the run.
 */
void fold_big_discard(void *p, size_t cap, size_t size);

/*
 * Gives back to the system the whole pages of p[0..n), memory of its
 * caller's that it has read and will not read again: they read as zeros
 * after. Nothing where the system has no such call.
 */
void fold_release(void *p, size_t n);

/*
 * Has libdeflate allocate its blocks as big arrays: a compressor's tables
 * (200 KB at level 1, 670 KB at 6) on a huge page, not on malloc's small
 * pages, of which compressing even a small profile faulted in 73. Called
 * before any compressor or decompressor of the process is made (one made
 * before would be freed as a big array), on any thread.
 */
void fold_libdeflate_alloc(void);

/*
 * An arena: bytes handed out one piece after another, freed all at once.
 * Its blocks are big arrays that grow fourfold from 64 KiB to 4 MiB: a
 * small table writes a few pages, a large one takes a fault a megabyte. A
 * piece that does not fit the last block starts the next (of its own size
 * when larger), so the pieces lie in blocks[0..n) in the order they were
 * taken, each block's used bytes one after another. Zero is empty.
 */
struct fold_arena {
	struct fold_block {
		char *p;
		size_t size, used;
	} *blocks;
	size_t n;
	size_t next;		/* the size of the next block; 0: 64 KiB */
};

/* n bytes (not initialised) at the end of the arena's last block */
void *fold_arena_alloc(struct fold_arena *a, size_t n);
void fold_arena_free(struct fold_arena *a);

char *fold_strndup(const char *s, size_t n);
char *fold_strdup(const char *s);
void fold_set_oom_handler(void (*handler)(void));

#endif
