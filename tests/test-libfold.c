/* Unit tests for libfold: prints "ok NAME" or "FAIL NAME" per check. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "libfold/count.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/jobs.h"
#include "libfold/output.h"
#include "libfold/stacks.h"
#include "libfold/tree.h"
#include "tests/check.h"

static const char *
fmt(struct fold_count c)
{
	static char buf[FOLD_COUNT_BUFSZ];
	fold_count_fmt(&c, buf);
	return buf;
}

static void
test_counts(void)
{
	struct fold_count c, a;

	CHECK(fold_count_parse("12", 2, &c) == 0 && !c.frac && c.v.u == 12,
	    "count: integer");
	CHECK(fold_count_parse("18446744073709551615", 20, &c) == 0 &&
	    c.v.u == UINT64_MAX, "count: 2^64-1");
	CHECK(fold_count_parse("18446744073709551616", 20, &c) < 0 &&
	    strstr(fold_err(), "out of range"), "count: 2^64 refused");
	CHECK(fold_count_parse("0.25", 4, &c) == 0 && c.frac && c.v.d == 0.25,
	    "count: fraction");
	CHECK(fold_count_parse("1e3", 3, &c) < 0 && strstr(fold_err(),
	    "exponent"), "count: exponent refused clearly");
	CHECK(fold_count_parse("-1", 2, &c) < 0, "count: negative refused");
	CHECK(fold_count_parse("1.", 2, &c) < 0, "count: '1.' refused");
	CHECK(fold_count_parse(".5", 2, &c) < 0, "count: '.5' refused");
	CHECK(fold_count_parse("0x10", 4, &c) < 0, "count: hex refused");
	CHECK(fold_count_parse("inf", 3, &c) < 0, "count: inf refused");
	a = fold_count_u64(UINT64_MAX - 1);
	c = fold_count_u64(1);
	CHECK(fold_count_add(&a, &c) == 0 && a.v.u == UINT64_MAX,
	    "add: up to 2^64-1");
	CHECK(fold_count_add(&a, &c) < 0 && a.v.u == UINT64_MAX &&
	    strstr(fold_err(), "overflow"), "add: overflow is an error");
	CHECK(strcmp(fmt(fold_count_double(0.1)), "0.1") == 0, "fmt: 0.1");
	CHECK(strcmp(fmt(fold_count_double(1.0)), "1") == 0, "fmt: 1.0 as 1");
	CHECK(strcmp(fmt(fold_count_double(1e-7)), "0.0000001") == 0,
	    "fmt: no exponent for small");
	CHECK(strcmp(fmt(fold_count_double(1e21)), "1000000000000000000000.0")
	    == 0, "fmt: no exponent for large");
	CHECK(strcmp(fmt(fold_count_double(123456.75)), "123456.75") == 0,
	    "fmt: 123456.75");
	CHECK(strcmp(fmt(fold_count_double(1.0 / 3)), "0.3333333333333333")
	    == 0, "fmt: shortest round trip of 1/3");
	CHECK(strcmp(fmt(fold_count_u64(UINT64_MAX)), "18446744073709551615")
	    == 0, "fmt: 2^64-1");
	{
		/* every printed double reads back as the same double */
		double v[] = { 0.1, 2.5e-300, 1.7976931348623157e308, 4.9e-324,
		    123.456, 1 / 7.0 };
		size_t i;
		int good = 1;
		for (i = 0; i < sizeof v / sizeof *v; i++) {
			const char *s = fmt(fold_count_double(v[i]));
			if (fold_count_parse(s, strlen(s), &c) < 0 || c.v.d != v[i])
				good = 0;
		}
		CHECK(good, "fmt: round trip through parse");
	}
	{
		char buf[FOLD_COUNT_BUFSZ];
		struct fold_count g = fold_count_u64(1234567);
		fold_count_fmt_grouped(&g, buf);
		CHECK(strcmp(buf, "1,234,567") == 0, "fmt: grouped");
		g = fold_count_double(1234.5);
		fold_count_fmt_grouped(&g, buf);
		CHECK(strcmp(buf, "1,234.5") == 0, "fmt: grouped fraction");
	}
	c = fold_count_u64(3);
	CHECK(fold_count_scale(&c, 4) == 0 && !c.frac && c.v.u == 12,
	    "scale: integer stays exact");
	CHECK(fold_count_scale(&c, 0.5) == 0 && c.frac && c.v.d == 6,
	    "scale: fraction");
	c = fold_count_u64(UINT64_MAX / 2 + 1);
	CHECK(fold_count_scale(&c, 2) < 0, "scale: overflow is an error");
}

/* fold_fixed_fmt against printf: halves, near-halves, random values */
static void
test_fixed(void)
{
	static const struct { double v; int d; const char *want; } t[] = {
		{ 0.15, 1, "0.1" }, { 0.25, 1, "0.2" }, { 0.35, 1, "0.3" },
		{ 0.45, 1, "0.5" }, { 2.675, 2, "2.67" }, { 1.5, 0, "2" },
		{ 2.5, 0, "2" }, { -0.0, 1, "-0.0" }, { -0.04, 1, "-0.0" },
		{ 1234.5678, 2, "1234.57" }, { 0, 0, "0" }, { 7, 3, "7.000" },
		{ 1e20, 1, "100000000000000000000.0" },
	};
	char buf[FOLD_COUNT_BUFSZ], want[FOLD_COUNT_BUFSZ];
	uint64_t r = 88172645463325252ULL;
	size_t i, bad = 0, n;
	int d;

	for (i = 0; i < sizeof t / sizeof *t; i++) {
		n = fold_fixed_fmt(t[i].v, t[i].d, buf);
		if (strcmp(buf, t[i].want) != 0 || n != strlen(buf)) {
			printf("# fixed %.17g %d: %s, want %s\n", t[i].v, t[i].d,
			    buf, t[i].want);
			bad++;
		}
	}
	CHECK(bad == 0, "fixed: halves, negative zero, large values");
	for (i = 0, bad = 0; i < 300000; i++) {
		double v, s;
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		d = (int)(r % 10);
		s = 1;
		for (n = 0; n < (size_t)d; n++)
			s *= 10;
		switch (r >> 60 & 3) {
		case 0:		/* anything up to a million */
			v = (double)(r >> 11) / 0x1p53 * 1e6;
			break;
		case 1:		/* a half at d decimals, a few ulps either way */
			v = ((double)(r >> 40 & 0xfffff) + 0.5) / s;
			v = nextafter(v, (r >> 4 & 1) ? 0 : 1e9);
			if (r >> 5 & 1)
				v = nextafter(v, 1e9);
			break;
		case 2:		/* an exact binary half, as flame widths are */
			v = (double)(r >> 40 & 0xfffff) / 1024;
			break;
		default:	/* negative */
			v = -(double)(r >> 11) / 0x1p53 * (r >> 8 & 1 ? 1 : 1e4);
		}
		n = fold_fixed_fmt(v, d, buf);
		snprintf(want, sizeof want, "%.*f", d, v);
		if (strcmp(buf, want) != 0 || n != strlen(want)) {
			if (bad++ < 5)
				printf("# fixed %.17g %d: %s, want %s\n", v, d,
				    buf, want);
		}
	}
	CHECK(bad == 0, "fixed: as printf's %.*f on 300,000 values");
}

static void
test_parse(void)
{
	struct fold_count c[2];
	size_t sl;

	CHECK(fold_parse_line("a;b c 12", 8, &sl, c, 1) == 1 && sl == 5 &&
	    c[0].v.u == 12, "parse: frame with space");
	CHECK(fold_parse_line("a;b 1 2", 7, &sl, c, 2) == 2 && sl == 3 &&
	    c[0].v.u == 1 && c[1].v.u == 2, "parse: two columns");
	CHECK(fold_parse_line("a;b 1 2", 7, &sl, c, 1) == 1 && sl == 5 &&
	    c[0].v.u == 2, "parse: one column keeps '1' in the frame");
	CHECK(fold_parse_line("   ", 3, &sl, c, 1) == 0, "parse: blank");
	CHECK(fold_parse_line("a;b", 3, &sl, c, 1) < 0, "parse: no count");
	CHECK(fold_parse_line(" 5", 2, &sl, c, 1) < 0, "parse: empty stack");
	CHECK(fold_parse_line("a\t7 \t", 5, &sl, c, 1) == 1 && sl == 1 &&
	    c[0].v.u == 7, "parse: tabs and trailing blanks");
	CHECK(fold_parse_line("5 6", 3, &sl, c, 2) == 1 && sl == 1 &&
	    c[0].v.u == 6, "parse: a count needs a stack before it");
	CHECK(fold_parse_line("a 5 6", 5, &sl, c, 2) == 2 && sl == 1 &&
	    c[0].v.u == 5 && c[1].v.u == 6, "parse: two counts");
	CHECK(fold_parse_line("a;[unknown]  1", 14, &sl, c, 1) == 1 &&
	    sl == 12 && c[0].v.u == 1,
	    "parse: one blank separates, a name keeps its trailing blank");
	CHECK(fold_parse_line("a  5 6", 6, &sl, c, 2) == 2 && sl == 2 &&
	    c[0].v.u == 5 && c[1].v.u == 6,
	    "parse: two counts after a name ending in a blank");
	CHECK(fold_parse_line("a 5  6", 6, &sl, c, 2) == 1 && sl == 4 &&
	    c[0].v.u == 6, "parse: two blanks before a count: part of the name");
}

static void
test_order(void)
{
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(fr, 1);
	struct fold_count one = fold_count_u64(1);
	const char *in[] = { "a;x", "a!", "a", "b;c", "a;x;y", "ab" };
	size_t i, n;

	for (i = 0; i < 6; i++)
		fold_stacks_add_text(st, in[i], strlen(in[i]), &one);
	fold_stacks_add_text(st, "a;x", 3, &one);
	CHECK(fold_stacks_len(st) == 6, "stacks: identical stacks merge");
	fold_stacks_sort(st, FOLD_ORDER_TEXT);
	/* LC_ALL=C sort of the texts: a, a!, a;x, a;x;y, ab, b;c */
	const char *want[] = { "a", "a!", "a;x", "a;x;y", "ab", "b;c" };
	int good = 1;
	for (i = 0; i < 6; i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &n);
		char buf[64] = "";
		for (size_t j = 0; j < n; j++) {
			if (j)
				strcat(buf, ";");
			strcat(buf, fold_intern_str(fr, ids[j], NULL));
		}
		if (strcmp(buf, want[i]) != 0)
			good = 0;
	}
	CHECK(good, "stacks: text order is byte order of the text");
	fold_stacks_sort(st, FOLD_ORDER_FRAMES);
	const uint32_t *ids = fold_stacks_ids(st, 1, &n);
	CHECK(n == 2 && strcmp(fold_intern_str(fr, ids[0], NULL), "a") == 0,
	    "stacks: frame order keeps a's children together");
	struct fold_count t;
	CHECK(fold_stacks_total(st, 0, &t) == 0 && t.v.u == 7, "stacks: total");

	struct fold_tree *tr = fold_tree_from_stacks(st, 0, 1);
	CHECK(tr && fold_tree_node(tr, 0)->total[0].v.u == 7, "tree: root total");
	/* preorder: root, a, a;x, a;x;y, a!, ab, b, b;c */
	const struct fold_node *nd = fold_tree_node(tr, 1);
	CHECK(fold_tree_len(tr) == 8 && nd->self[0].v.u == 1 &&
	    nd->total[0].v.u == 4, "tree: a self 1 total 4");
	CHECK(fold_tree_node(tr, 2)->depth == 2 && fold_tree_node(tr, 2)->next
	    == 0, "tree: depth and siblings");
	CHECK(fold_tree_maxdepth(tr) == 3, "tree: max depth");
	fold_tree_free(tr);
	tr = fold_tree_from_stacks(st, 2, 1);
	CHECK(tr && fold_tree_len(tr) == 3 && fold_tree_node(tr, 0)->total[0].v.u
	    == 7, "tree: pruning keeps totals");
	fold_tree_free(tr);
	/* sorted, then a stack that sorts first: sorted again, not left */
	fold_stacks_sort(st, FOLD_ORDER_TEXT);
	fold_stacks_add_text(st, "0", 1, &one);
	fold_stacks_sort(st, FOLD_ORDER_TEXT);
	ids = fold_stacks_ids(st, 0, &n);
	CHECK(n == 1 && strcmp(fold_intern_str(fr, ids[0], NULL), "0") == 0,
	    "stacks: a stack added after a sort is sorted by the next");
	fold_stacks_free(st);
	fold_intern_free(fr);
}

/* The count of the stack text s in st, or UINT64_MAX when absent. */
static uint64_t
count_of(struct fold_stacks *st, const char *s)
{
	struct fold_intern *fr = fold_stacks_frames(st);
	char *buf = NULL;
	size_t i, n, cap = 0, len;
	uint64_t c = UINT64_MAX;

	for (i = 0; i < fold_stacks_len(st) && c == UINT64_MAX; i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &n);
		len = fold_intern_join(fr, ids, n, &buf, &cap, 0);
		if (len == strlen(s) && memcmp(buf, s, len) == 0)
			c = fold_stacks_counts(st, i)->v.u;
	}
	free(buf);
	return c;
}

/*
 * fold_stacks_merge: a table of its own frames, and one that shares the
 * destination's, add up as if added there; a sum that overflows fails.
 */
static void
test_merge(void)
{
	struct fold_intern *fr = fold_intern_new(), *own = fold_intern_new();
	struct fold_stacks *dst = fold_stacks_new(fr, 1);
	struct fold_stacks *a = fold_stacks_new(own, 1);
	struct fold_stacks *b = fold_stacks_new(fr, 1);
	struct fold_count one = fold_count_u64(1), two = fold_count_u64(2);
	struct fold_count big = fold_count_u64(UINT64_MAX);

	fold_stacks_add_text(dst, "m;x", 3, &one);
	fold_stacks_add_text(a, "m;y", 3, &two);
	fold_stacks_add_text(a, "m;x", 3, &two);
	fold_stacks_add_text(a, "m;x", 3, &one);
	fold_stacks_add_text(b, "m;x;z", 5, &one);
	fold_stacks_add_text(b, "m;x", 3, &two);
	CHECK(fold_stacks_merge(dst, a) == 0 && fold_stacks_merge(dst, b) == 0,
	    "merge: tables of own and of shared frames");
	CHECK(fold_stacks_len(dst) == 3 && count_of(dst, "m;x") == 6 &&
	    count_of(dst, "m;y") == 2 && count_of(dst, "m;x;z") == 1,
	    "merge: the sums of both");
	CHECK(fold_stacks_adds(dst) == 6, "merge: the adds of both counted");
	fold_stacks_free(b);
	b = fold_stacks_new(fr, 1);
	fold_stacks_add_text(b, "m;y", 3, &big);
	CHECK(fold_stacks_merge(dst, b) < 0 && count_of(dst, "m;y") == 2,
	    "merge: an overflow fails and leaves that stack as it was");
	fold_stacks_free(a);
	fold_stacks_free(b);
	fold_stacks_free(dst);
	fold_intern_free(own);
	fold_intern_free(fr);
}

/*
 * fold_addq: stacks pushed are added in order, the last ones at the
 * flush; an add that overflows names the line of its own stack, and the
 * stacks pushed after it are not added.
 */
static void
test_addq(void)
{
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(fr, 1);
	struct fold_addq *q = fold_addq_new(st);
	struct fold_count one = fold_count_u64(1);
	struct fold_count big = fold_count_u64(UINT64_MAX);
	uint32_t **room;
	size_t *cap, i, n;
	int rc = 0;

	/* 7,000 stacks, (i % 7 + 1) frames: "m" (0), zeros, i % 1000 */
	for (i = 0; i < 20000 && rc == 0; i++) {
		room = fold_addq_room(q, &cap);
		n = i % 7 + 1;
		*room = fold_grow(*room, cap, n, sizeof **room);
		memset(*room, 0, n * sizeof **room);
		(*room)[0] = fold_intern(fr, "m", 1);
		(*room)[n - 1] = i % 1000;
		rc = fold_addq_push(q, n, &one, "in", i + 1);
	}
	CHECK(rc == 0 && fold_stacks_adds(st) == 20000 - 3,
	    "addq: the last three wait for the flush");
	CHECK(fold_addq_flush(q) == 0 && fold_stacks_adds(st) == 20000 &&
	    fold_stacks_len(st) == 7000, "addq: every stack added at the flush");
	CHECK(fold_stacks_ids(st, 0, &n)[0] == 0 && n == 1 &&
	    fold_stacks_ids(st, 6999, &n)[6] == 999 && n == 7,
	    "addq: in the order pushed");
	for (i = 0; i < 3; i++) {
		room = fold_addq_room(q, &cap);
		*room = fold_grow(*room, cap, 1, sizeof **room);
		(*room)[0] = i ? 5 : fold_intern(fr, "m", 1);
		fold_addq_push(q, 1, i == 0 ? &big : &one, "in", 100 + i);
	}
	CHECK(fold_addq_flush(q) < 0 && strstr(fold_err(), "in:100: ") &&
	    fold_stacks_adds(st) == 20000, "addq: an overflow names its line, "
	    "and stops the adds");
	CHECK(fold_addq_flush(q) == 0, "addq: empty after a failed flush");
	fold_addq_free(q);
	fold_stacks_free(st);
	fold_intern_free(fr);
}

/*
 * fold_stacks_take_mapped: src's frame ids become dst's through the map
 * given, src's own table of frames left unread; serials of tables differ.
 */
static void
test_take_mapped(void)
{
	struct fold_intern *fr = fold_intern_new(), *own = fold_intern_new();
	struct fold_stacks *dst = fold_stacks_new(fr, 1);
	struct fold_stacks *src = fold_stacks_new(own, 1);
	struct fold_count one = fold_count_u64(1), two = fold_count_u64(2);
	uint32_t map[3];

	fold_stacks_add_text(dst, "m;x", 3, &one);
	fold_stacks_add_text(src, "m;y", 3, &two);	/* m 0, y 1 */
	fold_stacks_add_text(src, "m;x", 3, &two);	/* x 2 */
	map[0] = fold_intern(fr, "m", 1);
	map[1] = fold_intern(fr, "y", 1);
	map[2] = fold_intern(fr, "x", 1);
	CHECK(fold_stacks_take_mapped(dst, src, map) == 0 &&
	    fold_stacks_len(dst) == 2 && count_of(dst, "m;x") == 3 &&
	    count_of(dst, "m;y") == 2 && fold_stacks_adds(dst) == 3,
	    "take_mapped: src's stacks in dst's frames, through the map");
	CHECK(fold_intern_serial(fr) != fold_intern_serial(own),
	    "intern: each table a serial of its own");
	fold_stacks_free(src);
	fold_stacks_free(dst);
	fold_intern_free(own);
	fold_intern_free(fr);
}

/*
 * fold_stacks_take: a larger table of the same frames gives its stacks
 * to dst, which keeps its unit and counts both tables' adds.
 */
static void
test_take(void)
{
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *dst = fold_stacks_new(fr, 1);
	struct fold_stacks *src = fold_stacks_new(fr, 1);
	struct fold_count one = fold_count_u64(1), two = fold_count_u64(2);
	char name[16];
	int i;

	fold_stacks_add_text(dst, "m;x", 3, &one);
	fold_stacks_set_unit(dst, "bytes", 5);
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "m;f%d", i);
		fold_stacks_add_text(src, name, strlen(name), &two);
	}
	fold_stacks_add_text(src, "m;x", 3, &two);
	CHECK(fold_stacks_take(dst, src) == 0 && fold_stacks_len(dst) == 3001 &&
	    count_of(dst, "m;x") == 3 && count_of(dst, "m;f2999") == 2 &&
	    count_of(dst, "m;f0") == 2,
	    "take: the larger table's stacks and the smaller's, summed");
	CHECK(fold_stacks_adds(dst) == 3002 &&
	    strcmp(fold_stacks_unit(dst), "bytes") == 0,
	    "take: dst keeps its unit and counts every add");
	fold_stacks_free(src);
	fold_stacks_free(dst);
	fold_intern_free(fr);
}

/* The stack "r;aI;b;c;d;e;f;g;h;i;j" of count c, added to st. */
static void
add_long(struct fold_stacks *st, int i, uint64_t c)
{
	struct fold_count k = fold_count_u64(c);
	char name[64];

	snprintf(name, sizeof name, "r;a%d;b;c;d;e;f;g;h;i;j", i);
	fold_stacks_add_text(st, name, strlen(name), &k);
}

/*
 * 1 when st holds add_long's stacks for I in [0, n) and no other, each
 * of count want(I), after a stack added to it once more.
 */
static int
long_ok(struct fold_stacks *st, int n, uint64_t (*want)(int))
{
	struct fold_intern *fr = fold_stacks_frames(st);
	char *buf = NULL, *seen = calloc(n, 1);
	size_t i, k, cap = 0, len;
	int good = fold_stacks_len(st) == (size_t)n, x;

	add_long(st, 0, 1);
	for (i = 0; i < fold_stacks_len(st) && good; i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &k);
		len = fold_intern_join(fr, ids, k, &buf, &cap, 0);
		buf[len] = '\0';
		if (sscanf(buf, "r;a%d;", &x) != 1 || x < 0 || x >= n ||
		    seen[x] || fold_stacks_counts(st, i)->v.u != want(x) +
		    (x == 0) || strcmp(strchr(buf + 3, ';'),
		    ";b;c;d;e;f;g;h;i;j") != 0)
			good = 0;
		else
			seen[x] = 1;
	}
	free(buf);
	free(seen);
	return good;
}

static uint64_t
want_apart(int i)
{
	return i < 70000 ? (uint64_t)i + 1 : 1000;
}

static uint64_t
want_most(int i)
{
	return i < 70000 ? (uint64_t)i + 1 + 1000 : 1000;
}

/*
 * fold_stacks_take of large tables of frames of their own: their frames'
 * pages, and their hash slots, are moved to dst's; when dst held most of
 * their stacks already, the new ones' frames are packed. Every stack
 * holds its sum either way, and the table takes stacks after.
 */
static void
test_take_large(void)
{
	struct fold_intern *fr = fold_intern_new(), *own;
	struct fold_stacks *dst, *src;
	int i, m;

	for (m = 0; m < 2; m++) {
		dst = fold_stacks_new(fr, 1);
		for (i = 0; i < 70000; i++)
			add_long(dst, i, (uint64_t)i + 1);
		own = fold_intern_copy(fr);
		src = fold_stacks_new(own, 1);
		/* 70,000 new stacks; or 70,000 of dst's and 1,000 new */
		for (i = m ? 0 : 70000; i < (m ? 71000 : 140000); i++)
			add_long(src, i, 1000);
		CHECK(fold_stacks_take(dst, src) == 0 && long_ok(dst, m ?
		    71000 : 140000, m ? want_most : want_apart), m ?
		    "take: a large table of stacks dst held, summed" :
		    "take: a large table of new stacks, added");
		fold_stacks_free(src);
		fold_intern_free(own);
		fold_stacks_free(dst);
	}
	fold_intern_free(fr);
}

/* The table of "m;fI;g" for I below 600, each of count I + 1. */
static struct fold_stacks *
many_dst(struct fold_intern *fr)
{
	struct fold_stacks *dst = fold_stacks_new(fr, 1);
	struct fold_count c;
	char name[32];
	int i;

	for (i = 0; i < 600; i++) {
		snprintf(name, sizeof name, "m;f%d;g", i);
		c = fold_count_u64(i + 1);
		fold_stacks_add_text(dst, name, strlen(name), &c);
	}
	return dst;
}

/* "m;fI;g" for I from 300 to 1199 of count (I + 1) * 1000 added to
   many_dst's: how many stacks do not hold the sum. */
static int
many_bad(struct fold_stacks *dst)
{
	char name[32];
	int i, bad = 0;

	for (i = 0; i < 1200; i++) {
		snprintf(name, sizeof name, "m;f%d;g", i);
		if (count_of(dst, name) != (uint64_t)(i + 1) *
		    ((i < 300 ? 0 : 1000) + (i < 600)))
			bad++;
	}
	return bad;
}

/*
 * fold_stacks_take of a table of a copy of dst's frames, larger than dst:
 * its stacks are mapped to dst's frames where they are, and each adds its
 * own count, the new frames' and the old.
 */
static void
test_take_own(void)
{
	struct fold_intern *fr = fold_intern_new(), *cp;
	struct fold_stacks *dst = many_dst(fr), *src;
	struct fold_count c = fold_count_u64(600);
	char name[32];
	int i;

	cp = fold_intern_copy(fr);
	src = fold_stacks_new(cp, 1);
	fold_stacks_add_text(dst, "m;new", 5, &c);	/* new: other ids */
	for (i = 1200; i-- > 300; ) {
		snprintf(name, sizeof name, "m;f%d;g", i);
		c = fold_count_u64((uint64_t)(i + 1) * 1000);
		fold_stacks_add_text(src, name, strlen(name), &c);
	}
	CHECK(fold_stacks_take(dst, src) == 0 && fold_stacks_len(dst) == 1201,
	    "take own frames: every stack once");
	CHECK(many_bad(dst) == 0 && count_of(dst, "m;new") == 600,
	    "take own frames: each stack its own sum");
	fold_stacks_free(src);
	fold_stacks_free(dst);
	fold_intern_free(cp);
	fold_intern_free(fr);
}

/*
 * A table whose frames began as a copy of dst's: the same ids for those,
 * new ones for frames added after on either side, merged by name.
 */
static void
test_copy(void)
{
	struct fold_intern *fr = fold_intern_new(), *cp;
	struct fold_stacks *dst = fold_stacks_new(fr, 1), *src;
	struct fold_count one = fold_count_u64(1);
	size_t len;

	fold_stacks_add_text(dst, "m;a", 3, &one);
	cp = fold_intern_copy(fr);
	CHECK(fold_intern_count(cp) == 2 &&
	    strcmp(fold_intern_str(cp, 1, &len), "a") == 0,
	    "intern copy: the same names with the same ids");
	src = fold_stacks_new(cp, 1);
	fold_stacks_add_text(dst, "m;b", 3, &one);	/* b: id 2 in dst */
	fold_stacks_add_text(src, "m;c", 3, &one);	/* c: id 2 in src */
	fold_stacks_add_text(src, "m;a", 3, &one);
	fold_stacks_add_text(src, "m;b", 3, &one);
	CHECK(fold_stacks_merge(dst, src) == 0 && fold_stacks_len(dst) == 3 &&
	    count_of(dst, "m;a") == 2 && count_of(dst, "m;b") == 2 &&
	    count_of(dst, "m;c") == 1,
	    "merge: frames of a copy, old and new on both sides");
	fold_stacks_free(src);
	fold_stacks_free(dst);
	fold_intern_free(cp);
	fold_intern_free(fr);
}

/*
 * Many stacks, each its own count, merged from a table of a copy of dst's
 * frames and from one that shares them: merge looks stacks up ahead of
 * adding them, and each must still add its own count.
 */
static void
test_merge_many(void)
{
	struct fold_intern *fr = fold_intern_new(), *cp;
	struct fold_stacks *dst = many_dst(fr), *own, *shared;
	struct fold_count c;
	char name[32];
	int i;

	cp = fold_intern_copy(fr);
	own = fold_stacks_new(cp, 1);
	shared = fold_stacks_new(fr, 1);
	for (i = 300; i < 1200; i++) {
		snprintf(name, sizeof name, "m;f%d;g", i);
		c = fold_count_u64((uint64_t)(i + 1) * 1000);
		fold_stacks_add_text(i % 2 ? own : shared, name, strlen(name),
		    &c);
	}
	CHECK(fold_stacks_merge(dst, own) == 0 &&
	    fold_stacks_merge(dst, shared) == 0 && fold_stacks_len(dst) == 1200,
	    "merge many: every stack once");
	CHECK(many_bad(dst) == 0, "merge many: each stack its own sum");
	fold_stacks_free(own);
	fold_stacks_free(shared);
	fold_stacks_free(dst);
	fold_intern_free(cp);
	fold_intern_free(fr);
}

/*
 * Names of every length around the word sizes the hash, the compare and
 * the copy work in, names differing only in their last or first byte, an
 * empty name, and a name bigger than an arena block: each interned once,
 * found again, and joined back to the same text.
 */
static void
test_intern(void)
{
	struct fold_intern *fr = fold_intern_new();
	size_t len, k, cap = 0, n, i, good = 1, bcap = 0;
	uint32_t *ids = NULL, id;
	char *big = malloc(600000), *buf = NULL, text[200];

	for (len = 0; len <= 70; len++) {
		char a[80], b[80];
		memset(a, 'x', len);
		memcpy(b, a, len);
		if (len > 0)
			b[len - 1] = 'y';
		uint32_t ia = fold_intern(fr, a, len), ib = fold_intern(fr, b, len);
		if (len > 0 && ia == ib)
			good = 0;
		if (len > 1) {
			b[len - 1] = 'x';
			b[0] = 'y';
			if (fold_intern(fr, b, len) == ia)
				good = 0;
			b[0] = 'x';
			b[len / 2 + 1 < len ? len / 2 + 1 : 0] = 'y';
			if (fold_intern(fr, b, len) == ia)
				good = 0;
		}
		if (fold_intern(fr, a, len) != ia ||
		    fold_intern_find(fr, a, len) != ia ||
		    fold_intern_str(fr, ia, &n) == NULL || n != len)
			good = 0;
	}
	CHECK(good, "intern: names of 0 to 70 bytes, one byte apart anywhere");

	memset(big, 'z', 600000);
	id = fold_intern(fr, big, 600000);
	CHECK(fold_intern(fr, big, 600000) == id && fold_intern_find(fr, big,
	    599999) == FOLD_NOFRAME, "intern: a name bigger than a block");

	const char *s = "main;;a;bb;ccccccccc;dddddddddddddddddddddddd;main";
	k = fold_intern_stack(fr, s, strlen(s), &ids, &cap, 0);
	CHECK(k == 7 && ids[0] == ids[6] && ids[1] == fold_intern(fr, "", 0),
	    "intern: a stack text split into names");
	n = fold_intern_join(fr, ids, k, &buf, &bcap, 0);
	CHECK(n == strlen(s) && memcmp(buf, s, n) == 0,
	    "intern: names joined back to the text");
	k = fold_intern_stack(fr, "", 0, &ids, &cap, k);
	CHECK(k == 8 && ids[7] == ids[1], "intern: appending an empty text");
	for (i = 0; i < sizeof text - 1; i++)
		text[i] = i % 7 == 6 ? ';' : 'a' + i % 26;
	k = fold_intern_stack(fr, text, sizeof text - 1, &ids, &cap, 0);
	n = fold_intern_join(fr, ids, k, &buf, &bcap, 3);
	CHECK(n == 3 + sizeof text - 1 && memcmp(buf + 3, text, n - 3) == 0,
	    "intern: join after an offset");
	free(ids);
	free(buf);
	free(big);
	fold_intern_free(fr);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Names that are prefixes of one another, with bytes on both sides of ';'
 * after them: the sorted stacks must come out in strcmp order of their
 * texts, whichever way the sort gets there.
 */
/* A stack's text, then after its NUL its count (8 bytes). */
static char *
text_count(struct fold_stacks *st, size_t i)
{
	char *out = NULL;
	size_t cap = 0, n, k;
	const uint32_t *ids = fold_stacks_ids(st, i, &n);
	uint64_t c = fold_stacks_counts(st, i)->v.u;

	k = fold_intern_join(fold_stacks_frames(st), ids, n, &out, &cap, 0);
	out = fold_grow(out, &cap, k + 1 + sizeof c, 1);
	out[k] = '\0';
	memcpy(out + k + 1, &c, sizeof c);
	return out;
}

/*
 * parts: the stacks added to 3 tables, the first of fr's frames and the
 * others of copies, taken by fold_stacks_take_parts; 2: and a stack of
 * a new frame added after, so that the frames' ranks made meanwhile are
 * not those of the frames there are at the sort.
 */
static void
order_random_parts(size_t count, size_t maxfr, unsigned jobs, int parts,
    const char *what)
{
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(fr, 1), *pst[3];
	struct fold_count c;
	static const char alpha[] = "ab:< !~";
	char **texts, *out, buf[256];
	size_t i, j, m, k;
	/* each call its own stacks: no table left sorted in reused memory */
	unsigned seed = 12345 + jobs;
	int good = 1;

	for (i = 0; i < count; i++) {
		size_t nf = 1 + (seed = seed * 1103515245 + 12345) % maxfr;
		k = 0;
		for (j = 0; j < nf; j++) {
			size_t len = ((seed = seed * 1103515245 + 12345) >> 8) % 6;
			if (j)
				buf[k++] = ';';
			/*
			 * names that share their first 8 bytes, and more;
			 * stacks that share their first frames, and more
			 */
			if (((seed = seed * 1103515245 + 12345) >> 12) % 3 == 0) {
				memcpy(buf + k, "ns::name", 8);
				k += 8;
			}
			if (j < 8 && ((seed = seed * 1103515245 + 12345) >> 12) %
			    4 != 0)
				len = j % 2;
			while (len--)
				buf[k++] = alpha[((seed = seed * 1103515245 +
				    12345) >> 16) % 7];
		}
		/* each stack's count its own */
		c = fold_count_u64(i + 1);
		if (parts && i == 0)
			for (j = 0; j < 3; j++)
				pst[j] = fold_stacks_new(j ?
				    fold_intern_copy(fr) : fr, 1);
		fold_stacks_add_text(parts ? pst[i % 3] : st, buf, k, &c);
	}
	if (parts) {
		good = fold_stacks_take_parts(st, pst, 3, jobs) == 0;
		for (j = 0; j < 3; j++) {
			struct fold_intern *own = fold_stacks_frames(pst[j]);
			fold_stacks_free(pst[j]);
			if (j)
				fold_intern_free(own);
		}
	}
	if (parts == 2) {
		c = fold_count_u64(1);
		fold_stacks_add_text(st, "ns::name;a;a new one", 20, &c);
	}
	m = fold_stacks_len(st);
	texts = calloc(m, sizeof *texts);
	for (i = 0; i < m; i++)
		texts[i] = text_count(st, i);
	qsort(texts, m, sizeof *texts, cmpstr);
	fold_stacks_sort_jobs(st, FOLD_ORDER_TEXT, jobs);
	for (i = 0; i < m && i < fold_stacks_len(st); i++) {
		out = text_count(st, i);
		k = strlen(out);
		if (strcmp(out, texts[i]) != 0 ||
		    memcmp(out + k + 1, texts[i] + k + 1, 8) != 0)
			good = 0;
		free(out);
	}
	CHECK(good && m == fold_stacks_len(st) && m > count / 6, what);
	for (i = 0; i < m; i++)
		free(texts[i]);
	free(texts);
	fold_stacks_free(st);
	fold_intern_free(fr);
}

static void
order_random(size_t count, size_t maxfr, unsigned jobs, const char *what)
{
	order_random_parts(count, maxfr, jobs, 0, what);
}

static void
test_order_random(void)
{
	order_random(3000, 4, 1, "stacks: text order with names prefixing "
	    "others");
	/* enough stacks for the threads, deep enough for runs below them */
	order_random(40000, 12, 1, "stacks: text order, many and deep");
	order_random(40000, 12, 2, "stacks: text order on 2 threads");
	order_random(40001, 12, 3, "stacks: text order on 3 threads");
	order_random(40002, 12, 7, "stacks: text order on 7 threads");
	order_random(70000, 12, 2, "stacks: text order on 2 threads, "
	    "reordered there");
	order_random_parts(40000, 12, 1, 1,
	    "stacks: text order of parts taken");
	order_random_parts(60000, 12, 2, 1,
	    "stacks: text order of parts taken, their frames ranked "
	    "meanwhile, their ids mapped on threads");
	order_random_parts(40000, 12, 2, 2,
	    "stacks: text order of parts taken, a frame added after");
}

/* 1 when the trees a and b are the same, node for node. */
static int
same_tree(const struct fold_tree *a, const struct fold_tree *b, int ncols)
{
	size_t i;

	if (!a || !b || fold_tree_len(a) != fold_tree_len(b) ||
	    fold_tree_maxdepth(a) != fold_tree_maxdepth(b))
		return 0;
	for (i = 0; i < fold_tree_len(a); i++) {
		const struct fold_node *x = fold_tree_node(a, i);
		const struct fold_node *y = fold_tree_node(b, i);
		if (x->frame != y->frame || x->parent != y->parent ||
		    x->next != y->next || x->depth != y->depth ||
		    memcmp(x->self, y->self, ncols * sizeof *x->self) != 0 ||
		    memcmp(x->total, y->total, ncols * sizeof *x->total) != 0)
			return 0;
	}
	return 1;
}

/*
 * A tree built in parts on threads, the subtrees of the root's children
 * apart, is the one a thread builds: a root child of half the stacks,
 * roots of one stack each, pruned subtrees at the parts' ends.
 */
static void
test_tree_parts(void)
{
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(fr, 2);
	static const unsigned jobs[] = { 2, 3, 7 };
	static const double mins[] = { 0, 40, 5000 };
	struct fold_tree *one, *par;
	struct fold_count c[2];
	unsigned seed = 777;
	char buf[256];
	size_t i, j, k, nf;
	int good = 1, m;

	for (i = 0; i < 30000; i++) {
		seed = seed * 1103515245 + 12345;
		k = (size_t)snprintf(buf, sizeof buf, "root%u",
		    i % 2 ? 0 : (seed >> 8) % (i % 5 ? 40 : 4000));
		nf = (seed >> 16) % 9;
		for (j = 0; j < nf; j++) {
			seed = seed * 1103515245 + 12345;
			k += (size_t)snprintf(buf + k, sizeof buf - k, ";f%u",
			    (seed >> 12) % (j < 2 ? 3 : 30));
		}
		c[0] = fold_count_u64(1 + (seed >> 20) % 100);
		c[1] = fold_count_u64(i % 7);
		/* of no frame, now and then: the root's own count */
		if (i % 1000 == 999)
			fold_stacks_add(st, NULL, 0, c);
		else
			fold_stacks_add_text(st, buf, k, c);
	}
	for (m = 0; m < 3; m++) {
		one = fold_tree_from_stacks(st, mins[m], 1);
		for (j = 0; j < 3; j++) {
			par = fold_tree_from_stacks(st, mins[m], jobs[j]);
			if (!same_tree(one, par, 2))
				good = 0;
			fold_tree_free(par);
		}
		if (!one || fold_tree_node(one, 0)->self[0].v.u == 0)
			good = 0;
		fold_tree_free(one);
	}
	CHECK(good, "tree: built in parts on 2, 3 and 7 threads, the same");
	fold_stacks_free(st);
	fold_intern_free(fr);
}

static void
test_deep(void)
{
	/* 100,000 frames deep: no recursion anywhere */
	struct fold_intern *fr = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(fr, 1);
	struct fold_count one = fold_count_u64(1);
	size_t n = 100000, i;
	uint32_t *ids = malloc(n * sizeof *ids);
	char name[32];

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "f%zu", i % 1000);
		ids[i] = fold_intern(fr, name, strlen(name));
	}
	fold_stacks_add(st, ids, n, &one);
	fold_stacks_add(st, ids, n / 2, &one);
	struct fold_tree *tr = fold_tree_from_stacks(st, 0, 1);
	CHECK(tr && fold_tree_len(tr) == n + 1 && fold_tree_maxdepth(tr) == n,
	    "tree: 100,000 frames deep");
	fold_tree_free(tr);
	fold_stacks_free(st);
	fold_intern_free(fr);
	free(ids);
}

static char tmpl[] = "/tmp/test-libfold-XXXXXX";

static void
test_input(void)
{
	int fd = mkstemp(tmpl);
	const char *line;
	size_t len;
	struct fold_in *in;
	gzFile gz;
	int k = 0;

	(void)!write(fd, "one\r\n\ntwo", 9);
	close(fd);
	in = fold_in_open(tmpl);
	CHECK(fold_in_line(in, &line, &len) == 1 && len == 3 &&
	    strcmp(line, "one") == 0, "input: CRLF");
	CHECK(fold_in_line(in, &line, &len) == 1 && len == 0, "input: blank");
	CHECK(fold_in_line(in, &line, &len) == 1 && strcmp(line, "two") == 0 &&
	    fold_in_lineno(in) == 3, "input: last line without newline");
	CHECK(fold_in_line(in, &line, &len) == 0, "input: end");
	fold_in_close(in);

	/* two gzip members, with a 3 MB line between them */
	size_t big = 3 << 20;
	char *b = malloc(big);
	memset(b, 'x', big);
	gz = gzopen(tmpl, "wb");
	gzwrite(gz, "first\n", 6);
	gzwrite(gz, b, big);
	gzwrite(gz, "\n", 1);
	gzclose(gz);
	gz = gzopen(tmpl, "ab");
	gzwrite(gz, "second\n", 7);
	gzclose(gz);
	in = fold_in_open(tmpl);
	while (fold_in_line(in, &line, &len) == 1)
		k++;
	CHECK(k == 3 && fold_in_gzipped(in) && strcmp(line, "second") == 0,
	    "input: concatenated gzip members and a 3 MB line");
	fold_in_close(in);

	/* truncate the gzip stream */
	truncate(tmpl, 100);
	in = fold_in_open(tmpl);
	int r;
	while ((r = fold_in_line(in, &line, &len)) == 1)
		;
	CHECK(r == -1 && strstr(fold_err(), "truncated"),
	    "input: truncated gzip is an error");
	fold_in_close(in);
	in = fold_in_open(tmpl);
	fold_in_set_limit(in, 10);
	while ((r = fold_in_line(in, &line, &len)) == 1)
		;
	CHECK(r == -1 && strstr(fold_err(), "limit"), "input: size limit");
	fold_in_close(in);
	CHECK(fold_in_open("/nonexistent/x") == NULL &&
	    strstr(fold_err(), "No such file"), "input: missing file");
	CHECK(fold_in_open("/") == NULL && strstr(fold_err(), "directory"),
	    "input: directory");
	unlink(tmpl);
	free(b);
}

/* s[0..n) as one gzip member at out; its length. */
static size_t
gzip_mem(const char *s, size_t n, unsigned char *out, size_t cap)
{
	z_stream z;
	size_t len;

	memset(&z, 0, sizeof z);
	deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (unsigned char *)s;
	z.avail_in = n;
	z.next_out = out;
	z.avail_out = cap;
	deflate(&z, Z_FINISH);
	len = cap - z.avail_out;
	deflateEnd(&z);
	return len;
}

/* The whole of p[0..n) read as a file named "gz": 0 and *got (the
   caller frees it), or -1. */
static int
read_mem(const unsigned char *p, size_t n, uint64_t limit, char **got,
    size_t *len)
{
	struct fold_in *in = fold_in_mem(p, n, "gz");
	const char *all;
	int r;

	fold_in_set_limit(in, limit);
	if ((r = fold_in_readall(in, &all, len)) == 0)
		*got = fold_strndup(all, *len);
	fold_in_close(in);
	return r;
}

/*
 * A small gzip input is inflated at once; what that refuses is streamed,
 * with the same result or message as a large input would have.
 */
static void
test_small_gzip(void)
{
	static unsigned char a[4096], b[8192];
	const char *text = "main;run;work 3\nmain;idle 1\n";
	size_t n = strlen(text), na, len;
	char *got;

	na = gzip_mem(text, n, a, sizeof a);
	CHECK(read_mem(a, na, 0, &got, &len) == 0 && len == n &&
	    memcmp(got, text, n) == 0, "small gzip: one member");
	free(got);
	memcpy(b, a, na);	/* two members: both read */
	memcpy(b + na, a, na);
	CHECK(read_mem(b, 2 * na, 0, &got, &len) == 0 && len == 2 * n &&
	    memcmp(got + n, text, n) == 0, "small gzip: two members");
	free(got);
	memcpy(b + na, "junk", 4);
	CHECK(read_mem(b, na + 4, 0, &got, &len) == -1 &&
	    strstr(fold_err(), "trailing garbage"),
	    "small gzip: garbage after the member");
	memcpy(b, a, na);
	b[na - 8] ^= 1;		/* the checksum */
	CHECK(read_mem(b, na, 0, &got, &len) == -1 &&
	    strstr(fold_err(), "corrupt gzip data: incorrect data check"),
	    "small gzip: a wrong checksum");
	b[na - 8] ^= 1;
	b[na - 4] ^= 1;		/* the size */
	CHECK(read_mem(b, na, 0, &got, &len) == -1 &&
	    strstr(fold_err(), "incorrect length check"),
	    "small gzip: a wrong size");
	CHECK(read_mem(a, na - 1, 0, &got, &len) == -1 &&
	    strstr(fold_err(), "truncated gzip"), "small gzip: cut short");
	CHECK(read_mem(a, na, n - 1, &got, &len) == -1 &&
	    strstr(fold_err(), "limit"), "small gzip: past the limit");
	CHECK(read_mem(a, na, n, &got, &len) == 0 && len == n,
	    "small gzip: at the limit");
	free(got);
}

/*
 * A small gzip input is handed over whole, a peek at its head before
 * or not; one that is not held whole, or past a limit set after it was,
 * is not, and is read on from where it was.
 */
static void
test_whole(void)
{
	static unsigned char a[4096];
	const char *text = "main;run;work 3\nmain;idle 1\n", *head;
	size_t n = strlen(text), na, len, hl;
	struct fold_in *in;
	char *got;

	na = gzip_mem(text, n, a, sizeof a);
	in = fold_in_mem(a, na, "gz");
	CHECK(fold_in_whole(in, &got, &len) == 1 && len == n &&
	    memcmp(got, text, n) == 0 && got[n] == '\0', "whole: gzip");
	free(got);
	CHECK(fold_in_chunk(in, &head, &hl) == 0, "whole: at the end after");
	fold_in_close(in);
	in = fold_in_mem(a, na, "gz");
	CHECK(fold_in_peek(in, 5, &head, &hl) == 0 && hl == n &&
	    fold_in_whole(in, &got, &len) == 1 && len == n &&
	    memcmp(got, text, n) == 0, "whole: gzip after a peek");
	free(got);
	fold_in_close(in);
	in = fold_in_mem(a, na, "gz");
	CHECK(fold_in_peek(in, 5, &head, &hl) == 0, "whole: peek");
	fold_in_set_limit(in, n - 1);
	CHECK(fold_in_whole(in, &got, &len) == 0 &&
	    fold_in_chunk(in, &head, &hl) == -1 &&
	    strstr(fold_err(), "limit"), "whole: not past a later limit");
	fold_in_close(in);
	in = fold_in_mem(text, n, "plain");
	CHECK(fold_in_whole(in, &got, &len) == 0 &&
	    fold_in_chunk(in, &head, &hl) == 1 && hl == n &&
	    memcmp(head, text, n) == 0, "whole: plain bytes are read on");
	fold_in_close(in);
}

static void
test_output(void)
{
	struct fold_out *o = fold_out_open("/dev/full");

	CHECK(o != NULL, "output: open /dev/full");
	if (!o)
		return;
	fold_out_puts(o, "hello\n");
	CHECK(fold_out_close(o) < 0 && strstr(fold_err(), "No space"),
	    "output: a full disk is an error at close");
}

/* large writes skip the buffer: what comes out is still all, in order */
static void
test_output_large(void)
{
	size_t n = 600 * 1024, i, got;
	char *big = malloc(n), *back = malloc(n + 1);
	struct fold_out *o;
	char path[64];
	FILE *f;

	/* the plain and the sanitized suites run side by side */
	snprintf(path, sizeof path, "test-output-large.%ld.tmp",
	    (long)getpid());
	for (i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	o = fold_out_open(path);
	fold_out_puts(o, "head\n");
	fold_out_write(o, big, n);
	fold_out_puts(o, "tail\n");
	CHECK(fold_out_close(o) == 0, "output: a large write is written");
	f = fopen(path, "rb");
	got = f ? fread(back, 1, 5, f) : 0;
	CHECK(got == 5 && memcmp(back, "head\n", 5) == 0 &&
	    fread(back, 1, n, f) == n && memcmp(back, big, n) == 0 &&
	    fread(back, 1, n, f) == 5 && memcmp(back, "tail\n", 5) == 0,
	    "output: a large write comes out whole, between what surrounds it");
	if (f)
		fclose(f);
	remove(path);
	free(big);
	free(back);
}

/*
 * fold_jobs_ordered: every task run once, each taken in order after it
 * ran, none begun 2 * jobs or more past the next to take, while take is
 * slow; their outputs to memory, appended in order, are one output.
 */
struct ordered {
	unsigned jobs;
	size_t taken, bad, runs[300];
	struct fold_out *out, *mem[300];
};

static void
ordered_run(void *arg, size_t i)
{
	struct ordered *o = arg;
	size_t k;

	if (i >= __atomic_load_n(&o->taken, __ATOMIC_RELAXED) + 2 * o->jobs)
		__atomic_add_fetch(&o->bad, 1, __ATOMIC_RELAXED);
	o->runs[i]++;
	o->mem[i] = fold_out_mem();
	for (k = 0; k < i % 7 * 700; k++)
		fold_out_printf(o->mem[i], "%zu.%zu\n", i, k);
}

static void
ordered_take(void *arg, size_t i)
{
	struct ordered *o = arg;

	if (o->runs[i] != 1 || i != o->taken)
		o->bad++;
	if (i % 50 == 0)
		usleep(2000);
	fold_out_append(o->out, o->mem[i]);
	__atomic_store_n(&o->taken, i + 1, __ATOMIC_RELAXED);
}

static void
test_jobs_ordered(void)
{
	static const unsigned jobs[] = { 1, 2, 7 };
	struct ordered o;
	char path[64], want[32], line[32];
	size_t i, k, j, wrong;
	FILE *f;

	snprintf(path, sizeof path, "test-jobs-ordered.%ld.tmp",
	    (long)getpid());
	for (j = 0; j < sizeof jobs / sizeof *jobs; j++) {
		memset(&o, 0, sizeof o);
		o.jobs = jobs[j];
		o.out = fold_out_open(path);
		fold_jobs_ordered(300, jobs[j], ordered_run, ordered_take, &o);
		CHECK(fold_out_close(o.out) == 0 && o.bad == 0 &&
		    o.taken == 300, "jobs: ordered: each task run once, taken "
		    "in order, none begun too far ahead");
		wrong = 0;
		f = fopen(path, "r");
		for (i = 0; f && i < 300; i++)
			for (k = 0; k < i % 7 * 700; k++) {
				snprintf(want, sizeof want, "%zu.%zu\n", i, k);
				if (!fgets(line, sizeof line, f) ||
				    strcmp(line, want) != 0)
					wrong++;
			}
		CHECK(f && wrong == 0 && fgetc(f) == EOF,
		    "jobs: ordered: the outputs to memory come out in order");
		if (f)
			fclose(f);
	}
	remove(path);
}

/* fold_jobs_ranges: every item in one range, once, at any jobs */
static void
mark_range(void *arg, size_t a, size_t b)
{
	unsigned char *seen = arg;

	for (; a < b; a++)
		seen[a]++;
}

static void
test_jobs_ranges(void)
{
	static const unsigned jobs[] = { 1, 2, 7 };
	static const size_t ns[] = { 0, 1, 99, 100, 101, 1000 };
	unsigned char seen[1000];
	size_t j, k, i, bad = 0;

	for (j = 0; j < sizeof jobs / sizeof *jobs; j++)
		for (k = 0; k < sizeof ns / sizeof *ns; k++) {
			memset(seen, 0, sizeof seen);
			fold_jobs_ranges(ns[k], 100, jobs[j], mark_range, seen);
			for (i = 0; i < sizeof seen; i++)
				bad += seen[i] != (i < ns[k]);
		}
	CHECK(bad == 0, "jobs: ranges cover every item once, on 1, 2 and 7 "
	    "threads, below the least for threads and above");
}

/*
 * fold_jobs_cut: a task ends once it has its weight; items of weight 0
 * go in the task they follow, not in tasks of their own
 */
static size_t
listed_weight(void *arg, size_t i)
{
	return ((const size_t *)arg)[i];
}

static void
test_jobs_cut(void)
{
	static const size_t w[] = { 0, 0, 3, 0, 2, 2, 0, 0, 5, 0 };
	size_t *from, total, n;

	n = fold_jobs_cut(10, 4, listed_weight, (void *)w, &from, &total);
	CHECK(n == 2 && from[0] == 0 && from[1] == 5 && from[2] == 10 &&
	    total == 12, "jobs: cut into tasks of a weight, those of 0 kept "
	    "with the task before");
	free(from);
	n = fold_jobs_cut(0, 4, listed_weight, (void *)w, &from, &total);
	CHECK(n == 0 && from[0] == 0 && total == 0,
	    "jobs: no item, no task");
	free(from);
}

/* fold_out_jobs: after a write fails, the tasks begun put nothing */
static size_t puts_made;

static void
put_100k(void *arg, size_t k, struct fold_out *mem)
{
	static char block[100 * 1024];

	(void)arg;
	(void)k;
	__atomic_add_fetch(&puts_made, 1, __ATOMIC_RELAXED);
	fold_out_write(mem, block, sizeof block);
}

static void
test_out_jobs_failed(void)
{
	struct fold_out *o = fold_out_open("/dev/full");

	if (!o)
		return;
	fold_out_jobs(o, 200, 2, put_100k, NULL);
	CHECK(fold_out_close(o) < 0 && puts_made < 200,
	    "output: tasks begun after the output failed put nothing");
}

static int makes, drops;

static void *
pt_make(void)
{
	makes++;
	return malloc(1);
}

static void
pt_drop(void *p)
{
	drops++;
	free(p);
}

static struct fold_perthread pt = FOLD_PERTHREAD(pt_make, pt_drop);

static void *
pt_thread(void *arg)
{
	void **got = arg;

	got[0] = fold_perthread(&pt);
	got[1] = fold_perthread(&pt);
	return NULL;
}

/* one object a thread, made once, dropped when the thread ends */
static void
test_perthread(void)
{
	void *mine = fold_perthread(&pt), *theirs[2] = { NULL, NULL };
	pthread_t t;

	CHECK(mine != NULL && fold_perthread(&pt) == mine && makes == 1,
	    "perthread: a thread's object is made once");
	if (pthread_create(&t, NULL, pt_thread, theirs) != 0)
		return;
	pthread_join(t, NULL);
	CHECK(theirs[0] != NULL && theirs[0] == theirs[1] &&
	    theirs[0] != mine && makes == 2,
	    "perthread: another thread has its own");
	CHECK(drops == 1, "perthread: dropped when its thread ends");
}

/*
 * A big array keeps its elements as it grows from malloc's block to a
 * mapping and from one mapping to a larger one; a zeroed one is zero.
 */
static void
test_big(void)
{
	size_t cap = 0, i, n = 3 * FOLD_BIG / sizeof(uint32_t), bad = 0;
	uint32_t *a = NULL, *z;
	void *block = MAP_FAILED;

	for (i = 0; i < n; i++) {
		a = fold_big_grow(a, &cap, i + 1, sizeof *a);
		a[i] = (uint32_t)(i * 2654435761u);
		/* a page right after the first mapping: it cannot grow in
		   place, its pages move */
		if (block == MAP_FAILED && cap * sizeof *a > FOLD_BIG)
			block = mmap((char *)a + ((cap * sizeof *a + FOLD_BIG -
			    1) & ~(FOLD_BIG - 1)), 4096, PROT_READ,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			    -1, 0);
	}
	if (block != MAP_FAILED)
		munmap(block, 4096);
	for (i = 0; i < n; i++)
		bad += a[i] != (uint32_t)(i * 2654435761u);
	CHECK(cap >= n && bad == 0, "big: grown past FOLD_BIG, kept");
	fold_big_free(a, cap, sizeof *a);
	z = fold_big_calloc(n, sizeof *z);
	for (i = 0; i < n; i++)
		bad += z[i] != 0;
	z[n - 1] = 1;
	CHECK(bad == 0, "big: calloc'd past FOLD_BIG, zero");
	fold_big_free(z, n, sizeof *z);
	z = fold_big_alloc(n, sizeof *z);
	memset(z, 0xab, n * sizeof *z);
	CHECK(z[n - 1] == 0xabababab, "big: alloc'd past FOLD_BIG, writable");
	fold_big_free(z, n, sizeof *z);
	/* that mapping, kept for the next array of its length, is zeroed
	   for a calloc */
	z = fold_big_calloc(n, sizeof *z);
	for (i = 0; i < n; i++)
		bad += z[i] != 0;
	CHECK(bad == 0, "big: calloc'd after a free of its length, zero");
	fold_big_free(z, n, sizeof *z);
	z = fold_big_calloc(10, sizeof *z);
	CHECK(z[9] == 0, "big: calloc'd small, zero");
	fold_big_free(z, 10, sizeof *z);
}

/*
 * Arrays of every size around the pool's (err.h): 16 KiB to FOLD_BIG,
 * blocks of shared huge pages, cut and merged again. Each holds its own
 * pattern through growth and the frees of the others, in any order, on
 * two threads at once.
 */
struct pooled {
	uint32_t *a;
	size_t cap, n;
	uint32_t seed;
};

static int
pool_round(struct pooled *v, size_t nv, uint32_t x)
{
	size_t i, j, round, bad = 0;

	for (round = 0; round < 6; round++) {
		for (i = 0; i < nv; i++) {
			struct pooled *e = &v[i];
			x = x * 1103515245 + 12345;
			if (e->a && (x >> 16) % 3 == 0) {
				for (j = 0; j < e->n; j++)
					bad += e->a[j] != e->seed + j;
				fold_big_free(e->a, e->cap, sizeof *e->a);
				e->a = NULL, e->cap = e->n = 0;
				continue;
			}
			/* 0 to 3 MiB: malloc's, the pool's and mappings */
			size_t to = e->n + (x >> 8) % (256 << 10);
			if (!e->a)
				e->seed = x;
			e->a = fold_big_grow(e->a, &e->cap, to, sizeof *e->a);
			for (j = e->n; j < to; j++)
				e->a[j] = e->seed + j;
			e->n = to;
		}
	}
	for (i = 0; i < nv; i++) {
		for (j = 0; j < v[i].n; j++)
			bad += v[i].a[j] != v[i].seed + j;
		fold_big_free(v[i].a, v[i].cap, sizeof *v[i].a);
	}
	return bad == 0;
}

static void *
pool_thread(void *arg)
{
	struct pooled v[24] = { 0 };

	/* a seed of its own, the same at every run */
	*(int *)arg = pool_round(v, 24, 13);
	return NULL;
}

static void
test_pool(void)
{
	struct pooled v[24] = { 0 };
	pthread_t t;
	int theirs = 0, mine;
	uint32_t *z;
	size_t i, bad = 0;

	pthread_create(&t, NULL, pool_thread, &theirs);
	mine = pool_round(v, 24, 7);
	pthread_join(t, NULL);
	CHECK(mine && theirs, "pool: arrays kept through growth and frees");
	/* a block that was another array's, zeroed for a calloc */
	z = fold_big_alloc(100 << 10, 1);
	memset(z, 0xff, 100 << 10);
	fold_big_free(z, 100 << 10, 1);
	z = fold_big_calloc(25 << 10, sizeof *z);
	for (i = 0; i < 25 << 10; i++)
		bad += z[i] != 0;
	CHECK(bad == 0, "pool: calloc'd after a free, zero");
	fold_big_free(z, 25 << 10, sizeof *z);
}

/* An arena's pieces, of every size up to past a block, in order. */
static void
test_arena(void)
{
	struct fold_arena a = { 0 };
	size_t i, k, bad = 0, total = 0;
	unsigned char *p[300];

	for (i = 0; i < 300; i++) {
		size_t n = i == 150 ? (5 << 20) : i * 97;
		p[i] = fold_arena_alloc(&a, n);
		memset(p[i], (int)i, n);
		total += n;
	}
	for (i = 0; i < 300; i++)
		for (k = 0; k < (i == 150 ? (5 << 20) : i * 97); k++)
			bad += p[i][k] != (unsigned char)i;
	CHECK(bad == 0, "arena: pieces kept apart");
	for (i = 0, k = 0; i < a.n; i++) {
		bad += a.blocks[i].used > a.blocks[i].size;
		k += a.blocks[i].used;
	}
	CHECK(bad == 0 && k == total, "arena: blocks hold what was taken");
	CHECK(a.blocks[0].size == 64 << 10, "arena: the first block is 64 KiB");
	/* each piece in the block of the one before it, or a later one */
	for (i = 0, k = 0; i < 300; i++) {
		while (k < a.n && !(p[i] >= (unsigned char *)a.blocks[k].p &&
		    p[i] <= (unsigned char *)a.blocks[k].p + a.blocks[k].used))
			k++;
		bad += k == a.n;
	}
	CHECK(bad == 0, "arena: pieces in the order they were taken");
	for (i = 0, bad = 0; i < a.n; i++)
		bad += a.blocks[i].size != (5 << 20) &&
		    a.blocks[i].size > (4 << 20);
	CHECK(bad == 0, "arena: blocks stop growing at 4 MiB");
	fold_arena_free(&a);
	CHECK(a.n == 0 && a.blocks == NULL, "arena: freed, empty");
}

int
main(void)
{
	test_counts();
	test_fixed();
	test_parse();
	test_order();
	test_merge();
	test_addq();
	test_take();
	test_take_large();
	test_take_mapped();
	test_copy();
	test_merge_many();
	test_take_own();
	test_intern();
	test_order_random();
	test_tree_parts();
	test_deep();
	test_input();
	test_small_gzip();
	test_whole();
	test_output();
	test_output_large();
	test_perthread();
	test_jobs_ordered();
	test_jobs_ranges();
	test_jobs_cut();
	test_out_jobs_failed();
	test_big();
	test_pool();
	test_arena();
	return failed;
}
