#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "err.h"
#include "hash.h"
#include "jobs.h"
#include "folded.h"
#include "merge.h"
#include "unit.h"

/*
 * A stream is a sorted sequence of (stack text, count): a sorted folded
 * file (or an intermediate temporary file) read line by line, or the
 * sorted table that holds every unsorted input.
 */
struct stream {
	struct fold_in *in;
	const struct ident *id;	/* what the file was when scanned, or NULL */
	struct ttab *tt;
	size_t pos;
	const char *root;
	char *key;
	size_t keylen, keycap;
	struct fold_count cnt;
	int failed;
};

/*
 * What a regular file was when first looked at. Inputs are read twice (a
 * scan, then the merge or the table), and any of them may change under a
 * reader: comparing this with the file at the end of the last read turns
 * a file that grew, shrank or was replaced meanwhile into an error naming
 * it, never a silently partial result.
 */
struct ident {
	int reg;		/* 0: not a regular file, nothing to compare */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

/*
 * Unsorted inputs are summed by stack text, not by frames: the merge
 * compares and writes texts throughout, and hashing a whole line is much
 * cheaper than interning each of its frames.
 */
struct tent {
	const char *s;
	size_t len;
	uint32_t hash;
	struct fold_count cnt;
};

struct ttab {
	struct tent *ents;
	size_t len, cap;
	uint32_t *slots;	/* entry + 1; 0 empty */
	size_t mask;
	struct fold_arena text;	/* the stacks' texts */
};

/*
 * On the threads, unsorted inputs are read in pieces of this many bytes
 * (at line starts), each line sent to the table of its stack's share:
 * 2 MiB read 1.35 times faster at -j2 than -j1, 1 and 8 MiB 1.3 times
 * (a piece is read, then its lines are added, from the cache or not).
 */
#define MERGE_PIECE ((uint64_t)2 << 20)

static char *
tt_store(struct ttab *t, const char *s, size_t n)
{
	char *p = fold_arena_alloc(&t->text, n);

	memcpy(p, s, n);
	return p;
}

static void
tt_grow(struct ttab *t)
{
	size_t i, j, mask = t->mask ? t->mask * 2 + 1 : 4095;

	fold_big_free(t->slots, t->mask ? t->mask + 1 : 0, sizeof *t->slots);
	t->slots = fold_big_calloc(mask + 1, sizeof *t->slots);
	t->mask = mask;
	for (i = 0; i < t->len; i++) {
		for (j = t->ents[i].hash & mask; t->slots[j]; j = (j + 1) & mask)
			;
		t->slots[j] = i + 1;
	}
}

static int
tt_add(struct ttab *t, const char *s, size_t n, uint32_t h,
    const struct fold_count *c)
{
	size_t j;

	if (t->len * 2 >= t->mask)
		tt_grow(t);
	for (j = h & t->mask; t->slots[j]; j = (j + 1) & t->mask) {
		struct tent *e = &t->ents[t->slots[j] - 1];
		if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
			return fold_count_add(&e->cnt, c);
	}
	t->ents = fold_big_grow(t->ents, &t->cap, t->len + 1,
	    sizeof *t->ents);
	t->ents[t->len].s = tt_store(t, s, n);
	t->ents[t->len].len = n;
	t->ents[t->len].hash = h;
	t->ents[t->len].cnt = *c;
	t->slots[j] = ++t->len;
	return 0;
}

static int
tent_cmp(const struct tent *a, const struct tent *b, size_t d)
{
	size_t n = (a->len < b->len ? a->len : b->len);
	int c = n > d ? memcmp(a->s + d, b->s + d, n - d) : 0;

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static int
tent_qcmp(const void *x, const void *y)
{
	return tent_cmp(*(struct tent *const *)x, *(struct tent *const *)y, 0);
}

/*
 * The 8 bytes of e's text from d on, as a big-endian number (zero padded),
 * times 9 plus how many of them exist: numbers order like the texts, and
 * a text that ends here sorts before one that goes on with zero bytes.
 */
struct chunk {
	uint64_t k;
	unsigned n;
};

/* Read as big-endian, 8 bytes compare as one number. */
static inline uint64_t
tobig(uint64_t w)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_bswap64(w);
#else
	return w;
#endif
}

static inline struct chunk
chunkat(const struct tent *e, size_t d)
{
	struct chunk c = { 0, 0 };
	unsigned char b[8] = { 0 };
	uint64_t w;

	if (d + 8 <= e->len) {
		memcpy(&w, e->s + d, 8);
		c.k = tobig(w);
		c.n = 8;
	} else if (d < e->len) {
		c.n = e->len - d;
		memcpy(b, e->s + d, c.n);
		memcpy(&w, b, 8);
		c.k = tobig(w);
	}
	return c;
}

static inline int
chunkcmp(struct chunk a, struct chunk b)
{
	if (a.k != b.k)
		return a.k < b.k ? -1 : 1;
	return (a.n > b.n) - (a.n < b.n);
}

/*
 * Multikey quicksort (Bentley and Sedgewick), 8 bytes a level, of texts
 * known to agree on their first d bytes: stacks share long prefixes, which
 * a comparison sort would compare again and again. Deep recursion falls
 * back to qsort.
 */
static void
mkqs(struct tent **a, size_t n, size_t d, int depth)
{
	while (n > 1) {
		size_t i, lt = 0, gt = n, k;
		if (n < 12) {
			for (i = 1; i < n; i++)
				for (k = i; k > 0 && tent_cmp(a[k - 1], a[k], d) > 0;
				    k--) {
					struct tent *t = a[k];
					a[k] = a[k - 1];
					a[k - 1] = t;
				}
			return;
		}
		if (depth > 64) {
			qsort(a, n, sizeof *a, tent_qcmp);
			return;
		}
		struct chunk x = chunkat(a[0], d), y = chunkat(a[n / 2], d),
		    z = chunkat(a[n - 1], d), v;
		if (chunkcmp(x, y) < 0)
			v = chunkcmp(y, z) < 0 ? y : chunkcmp(x, z) < 0 ? z : x;
		else
			v = chunkcmp(x, z) < 0 ? x : chunkcmp(y, z) < 0 ? z : y;
		for (i = 0; i < gt;) {
			int c = chunkcmp(chunkat(a[i], d), v);
			struct tent *t = a[i];
			if (c < 0) {
				a[i++] = a[lt];
				a[lt++] = t;
			} else if (c > 0) {
				a[i] = a[--gt];
				a[gt] = t;
			} else {
				i++;
			}
		}
		mkqs(a, lt, d, depth + 1);
		mkqs(a + gt, n - gt, d, depth + 1);
		if (v.n < 8)
			return;		/* equal texts, all ended */
		a += lt;
		n = gt - lt;
		d += 8;
	}
}

/* Sorts the table's entries into byte order of their texts. */
static void
tt_sort(struct ttab *t)
{
	size_t i, pcap = 0, scap = 0;
	struct tent **p = fold_big_grow(NULL, &pcap, t->len + 1, sizeof *p);
	struct tent *sorted = fold_big_grow(NULL, &scap, t->len + 1,
	    sizeof *sorted);

	for (i = 0; i < t->len; i++)
		p[i] = &t->ents[i];
	mkqs(p, t->len, 0, 0);
	for (i = 0; i < t->len; i++)
		sorted[i] = *p[i];
	fold_big_free(p, pcap, sizeof *p);
	fold_big_free(t->ents, t->cap, sizeof *t->ents);
	t->ents = sorted;
	t->cap = scap;
}

static void
tt_free(struct ttab *t)
{
	fold_arena_free(&t->text);
	fold_big_free(t->ents, t->cap, sizeof *t->ents);
	fold_big_free(t->slots, t->mask ? t->mask + 1 : 0, sizeof *t->slots);
}

struct item {			/* an input waiting for its merge */
	const char *path;	/* NULL: tmp */
	const char *root;
	FILE *tmp;
	struct ident id;
	int dead;		/* could not be opened (reported): skipped */
};

struct merger {
	const struct fold_merge_opt *opt;
	struct fold_diag *diag;
	struct fold_held *held;	/* when set, what is said is held */
	int threaded;		/* on one of several threads */
	int file_failed;
	uint64_t stacks;	/* emitted to the final sink */
	char unit[FOLD_UNIT_MAX + 1];	/* of the inputs so far; "": none */
	struct fold_unit_out uo;	/* its line in the output */
};

/*
 * line[0..slen) with count c as a unit line: 1 when it is one (its unit
 * kept in unit, the input's so far), -1 when it is a bad one (the message
 * set), 0 when it is a stack. Nothing is said.
 */
static int
unit_take(const char *line, size_t slen, const struct fold_count *c,
    char *unit)
{
	if (line[0] != '#' || !fold_count_iszero(c))
		return 0;
	return fold_unit_take(unit, line, slen);
}

/*
 * The unit line of an input, when line[0..slen) with count c is one:
 * returns 1 and keeps its unit in unit (the input's, so far), 0 when it
 * is a stack, -1 on a strict warning (a bad unit line is a bad line).
 */
static int
unitline(struct merger *m, const char *name, uint64_t lineno,
    const char *line, size_t slen, const struct fold_count *c, char *unit)
{
	int k;

	if (!(k = unit_take(line, slen, c, unit)))
		return 0;
	if (k < 0)
		return fold_warn(m->diag, name, lineno, "%s", fold_err()) < 0 ?
		    -1 : 1;
	return 1;
}

/*
 * An input was read whole, its unit line unit ("": none) and any: did it
 * give a stack. Its unit must be the others' (samples when it names
 * none), unless the caller named the unit of the sum. Returns 0, or -1
 * with a message.
 */
static int
input_unit(struct merger *m, const char *name, const char *unit, int any)
{
	if (!unit[0] && !any)
		return 0;
	if (!unit[0])
		unit = FOLD_UNIT_SAMPLES;
	if (m->opt->unit)
		return 0;
	if (!m->unit[0]) {
		snprintf(m->unit, sizeof m->unit, "%s", unit);
		return 0;
	}
	if (strcmp(m->unit, unit) == 0)
		return 0;
	return fold_seterr_at(name, 0, "counts %s, but the inputs before it "
	    "%s; different units do not add up", unit, m->unit);
}

/*
 * gm: m for a task, which holds what it says in ns (through d): its
 * diag's limit and strictness, so that the task stops where m would have.
 * threaded: the task is one of several on threads at once.
 */
static void
holding(const struct merger *m, struct merger *gm, struct fold_diag *d,
    struct fold_held *h, int threaded)
{
	*gm = *m;
	gm->threaded = threaded;
	fold_hold(d, h, m->diag->limit, m->diag->strict);
	gm->diag = d;
	gm->held = h;
}

static void
file_error(struct merger *m, const char *msg)
{
	if (m->held) {
		fold_held_note(m->held, msg);
		return;
	}
	m->file_failed = 1;
	if (m->opt->file_error)
		m->opt->file_error(m->opt->arg, msg);
}

static void
said_file_error(void *arg, const char *msg)
{
	file_error(arg, msg);
}

/* Says what a task held (fold_held_say), its failed files to m. */
static int
say(struct merger *m, struct fold_held *h)
{
	return fold_held_say(h, m->diag, 0, said_file_error, m);
}

/*
 * An input opened: the caller may watch it being read, when no other
 * thread reads meanwhile (it draws a progress line).
 */
static struct fold_in *
opened(struct merger *m, struct fold_in *in)
{
	if (in && m->opt->opened && !m->threaded)
		m->opt->opened(m->opt->arg, in);
	return in;
}

static void
getident(const char *path, struct ident *id)
{
	struct stat sb;

	memset(id, 0, sizeof *id);
	if (!path || strcmp(path, "-") == 0 || stat(path, &sb) < 0 ||
	    !S_ISREG(sb.st_mode))
		return;
	id->reg = 1;
	id->dev = sb.st_dev;
	id->ino = sb.st_ino;
	id->size = sb.st_size;
	id->mtime = sb.st_mtim;
}

/*
 * Called once path has been read to its end: reports it and returns 1 when
 * it is no longer the file id describes. What was read of it has joined
 * the merge by then, so the error is what keeps the result from passing
 * for whole.
 */
static int
changed(struct merger *m, const char *path, const struct ident *id)
{
	struct ident now;

	if (!id || !id->reg)
		return 0;
	getident(path, &now);
	if (now.reg && now.dev == id->dev && now.ino == id->ino &&
	    now.size == id->size && now.mtime.tv_sec == id->mtime.tv_sec &&
	    now.mtime.tv_nsec == id->mtime.tv_nsec)
		return 0;
	fold_seterr("%s: changed while being read", path);
	file_error(m, fold_err());
	return 1;
}

static void
setkey(struct stream *s, const char *stack, size_t n)
{
	size_t rl = s->root ? strlen(s->root) + 1 : 0;

	s->key = fold_grow(s->key, &s->keycap, rl + n + 1, 1);
	if (rl) {
		memcpy(s->key, s->root, rl - 1);
		s->key[rl - 1] = ';';
	}
	memcpy(s->key + rl, stack, n);
	s->keylen = rl + n;
}

static int
keycmp(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

/* Advances s; returns 1 with a key, 0 at the end, -1 on a fatal error. */
static int
advance(struct merger *m, struct stream *s)
{
	const char *line, *u;
	size_t len, slen, n;
	int r, k;

	if (s->tt) {
		if (s->pos >= s->tt->len)
			return 0;
		const struct tent *e = &s->tt->ents[s->pos++];
		s->key = (char *)e->s;	/* borrowed: keycap stays 0 */
		s->keylen = e->len;
		s->cnt = e->cnt;
		return 1;
	}
	while ((r = fold_in_line(s->in, &line, &len)) > 0) {
		k = fold_parse_line(line, len, &slen, &s->cnt, 1);
		/* unit lines were read by scan(): skipped quietly */
		if (k > 0 && line[0] == '#' && fold_count_iszero(&s->cnt) &&
		    fold_unit_line(line, slen, &u, &n) != 0)
			continue;
		if (k > 0) {
			setkey(s, line, slen);
			return 1;
		}
		if (k < 0 && fold_warn(m->diag, fold_in_name(s->in),
		    fold_in_lineno(s->in), "%s", fold_err()) < 0)
			return -1;
	}
	if (r < 0) {
		file_error(m, fold_err());
		s->failed = 1;
	} else if (changed(m, fold_in_name(s->in), s->id)) {
		s->failed = 1;
	}
	return 0;
}

/* A binary min-heap of streams by key (ties: lower index first). */
static int
less(struct stream **h, size_t i, size_t j)
{
	int c = keycmp(h[i]->key, h[i]->keylen, h[j]->key, h[j]->keylen);

	return c ? c < 0 : h[i] < h[j];
}

static void
siftdown(struct stream **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && less(h, l, m))
			m = l;
		if (r < n && less(h, r, m))
			m = r;
		if (m == i)
			return;
		struct stream *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

struct sink {
	struct fold_out *out;
	int final;		/* apply scaling and the minimum */
	double factor;		/* value multiplier when final */
	int exact;		/* factor is an integer: keep integers exact */
};

static int
emit(struct merger *m, struct sink *k, const char *key, size_t n,
    struct fold_count c)
{
	if (k->final) {
		m->stacks++;
		if (k->exact) {
			if (fold_count_scale(&c, k->factor) < 0)
				return -1;
		} else if (k->factor != 1) {
			c = fold_count_double(fold_count_val(&c) * k->factor);
		}
		if (m->opt->min && fold_count_cmp(&c, &m->opt->min_count) < 0)
			return 0;
		fold_unit_out_before(&m->uo, k->out, key, n);
	}
	fold_out_write(k->out, key, n);
	fold_out_putc(k->out, ' ');
	fold_out_count(k->out, &c);
	fold_out_putc(k->out, '\n');
	return 0;
}

/* Merges the streams (already primed or not) into the sink. */
static int
kway(struct merger *m, struct stream *s, size_t n, struct sink *k)
{
	struct stream **h = fold_reallocarray(NULL, n ? n : 1, sizeof *h);
	size_t nh = 0, i;
	char *cur = NULL;
	size_t curlen = 0, curcap = 0;
	struct fold_count acc = FOLD_COUNT_INIT;
	int have = 0, rc = 0, r;

	for (i = 0; i < n; i++) {
		if ((r = advance(m, &s[i])) < 0)
			goto fail;
		if (r)
			h[nh++] = &s[i];
	}
	for (i = nh; i-- > 0;)
		siftdown(h, nh, i);
	while (nh > 0) {
		struct stream *top = h[0];
		int c = have ? keycmp(top->key, top->keylen, cur, curlen) : 1;
		if (c < 0) {
			rc = fold_seterr("%s: input is no longer sorted (did it "
			    "change while being read?)", top->in ?
			    fold_in_name(top->in) : "merge");
			goto fail;
		}
		if (c > 0) {
			if (have && emit(m, k, cur, curlen, acc) < 0)
				goto fail;
			cur = fold_grow(cur, &curcap, top->keylen + 1, 1);
			memcpy(cur, top->key, top->keylen);
			curlen = top->keylen;
			acc = top->cnt;
			have = 1;
		} else if (fold_count_add(&acc, &top->cnt) < 0) {
			rc = fold_seterr("%.*s%s: %s", FOLD_CUT(cur, curlen),
			    fold_err());
			goto fail;
		}
		if ((r = advance(m, top)) < 0)
			goto fail;
		if (r == 0)
			h[0] = h[--nh];
		siftdown(h, nh, 0);
		if (fold_out_failed(k->out))
			break;
	}
	if (have && emit(m, k, cur, curlen, acc) < 0)
		goto fail;
	free(h);
	free(cur);
	return 0;
fail:
	free(h);
	free(cur);
	(void)rc;
	return -1;
}

/* What the first pass found in an input. */
struct scanned {
	int r;			/* 1 sorted, 0 not, -1 unreadable */
	struct fold_count total;
	struct ident id;
	char unit[FOLD_UNIT_MAX + 1];	/* its unit line's, "": none */
	int have;		/* a stack */
	int plain;		/* no gzip, no UTF-16: readable in pieces */
	struct fold_held held;	/* when scanned on another thread */
};

/*
 * First pass over a regular file: is it sorted, and what are its total
 * and its unit? Sets sc->id to what the file is before it is read. Bad
 * lines are left for the real pass to report: a bad unit line makes the
 * file one to read into the table, which says it once. Sets sc->r: 1
 * sorted, 0 not (or not a regular file), -1 unreadable (reported).
 */
static void
scan(struct merger *m, const char *path, struct scanned *sc)
{
	struct fold_in *in;
	const char *line;
	char *prev = NULL;
	size_t len, slen, plen = 0, pcap = 0;
	struct fold_count c, *total = &sc->total;
	char *unit = sc->unit;
	uint64_t at, size;
	int r, sorted = 1, have = 0, u, fd;

	sc->r = 0;
	unit[0] = '\0';
	getident(path, &sc->id);
	if (!sc->id.reg)
		return;
	if (!(in = opened(m, fold_in_open(path)))) {
		file_error(m, fold_err());
		sc->r = -1;
		return;
	}
	sc->plain = fold_in_file(in, &fd, &at, &size) && at == 0;
	*total = fold_count_u64(0);
	while ((r = fold_in_line(in, &line, &len)) > 0) {
		if (fold_parse_line(line, len, &slen, &c, 1) <= 0)
			continue;
		if ((u = unit_take(line, slen, &c, unit)) != 0) {
			/* a bad one: the table pass says it, in its place */
			if (u < 0) {
				sorted = 0;
				break;
			}
			continue;
		}
		if (have && keycmp(line, slen, prev, plen) < 0) {
			sorted = 0;
			break;
		}
		if (fold_count_add(total, &c) < 0) {
			sorted = 0;	/* the table pass will report it */
			break;
		}
		prev = fold_grow(prev, &pcap, slen + 1, 1);
		memcpy(prev, line, slen);
		plen = slen;
		have = 1;
	}
	free(prev);
	if (r < 0) {
		file_error(m, fold_err());
		fold_in_close(in);
		sc->r = -1;
		return;
	}
	fold_in_close(in);
	sc->have = have;
	sc->r = sorted;
}

struct scanjob {
	struct merger *m;
	const struct fold_merge_input *inputs;
	struct scanned *sc;
};

static void
scan_task(void *arg, size_t i)
{
	struct scanjob *j = arg;
	struct merger gm;
	struct fold_diag d;

	holding(j->m, &gm, &d, &j->sc[i].held, 1);
	scan(&gm, j->inputs[i].path, &j->sc[i]);
}

/*
 * What a line of an unsorted input is: returns 1 for a stack, its key
 * (behind tmp's root) in *key, *klen, its count in *c, *any set; 2 for a
 * unit line (taken into unit, or bad and said); 0 for a line to skip (a
 * bad one said); -1 on a strict warning.
 */
static int
stackline(struct merger *m, struct stream *tmp, const char *name,
    uint64_t lineno, const char *line, size_t len, char *unit, int *any,
    const char **key, size_t *klen, struct fold_count *c)
{
	size_t slen;
	int k = fold_parse_line(line, len, &slen, c, 1);

	if (k < 0)
		return fold_warn(m->diag, name, lineno, "%s", fold_err()) < 0 ?
		    -1 : 0;
	if (k == 0)
		return 0;
	if ((k = unitline(m, name, lineno, line, slen, c, unit)) != 0)
		return k < 0 ? -1 : 2;
	*any = 1;
	if (tmp->root)
		setkey(tmp, line, slen);
	*key = tmp->root ? tmp->key : line;
	*klen = tmp->root ? tmp->keylen : slen;
	return 1;
}

/*
 * Adds one line of an unsorted input to the text table. Returns 0; 1 on
 * an overflow (message set); -1 on a strict warning.
 */
static int
addline(struct merger *m, struct ttab *t, struct stream *tmp,
    const char *name, uint64_t lineno, const char *line, size_t len,
    char *unit, int *any)
{
	struct fold_count c;
	const char *key;
	size_t klen;
	int k = stackline(m, tmp, name, lineno, line, len, unit, any, &key,
	    &klen, &c);

	if (k != 1)
		return k < 0 ? -1 : 0;
	if (tt_add(t, key, klen, (uint32_t)fold_hash(key, klen), &c) < 0) {
		fold_seterr_at(name, lineno, "%s", fold_err());
		return 1;
	}
	return 0;
}

/*
 * Sums an unsorted input into the text table, whose arena then holds a
 * copy of each distinct stack: read(2), not mmap(2), so that a file
 * truncated under us reads shorter (and is reported by changed()) where
 * a mapping would kill the process with SIGBUS. Copying costs no more
 * than faulting the mapping in, and a stack that repeats is kept once.
 * Returns 0; 1 when the file failed (reported); -1 on a fatal error (a
 * strict warning, a unit).
 */
static int
load(struct merger *m, struct ttab *t, const struct fold_merge_input *x,
    const struct ident *id)
{
	struct stream tmp = { 0 };
	struct fold_in *in;
	const char *line;
	char unit[FOLD_UNIT_MAX + 1] = "";
	size_t len;
	int r = 0, rc = 0, any = 0;

	tmp.root = x->root;
	if (!(in = opened(m, fold_in_open(x->path)))) {
		file_error(m, fold_err());
		return 1;
	}
	while (rc == 0 && (r = fold_in_line(in, &line, &len)) > 0)
		rc = addline(m, t, &tmp, fold_in_name(in), fold_in_lineno(in),
		    line, len, unit, &any);
	if (r < 0)
		rc = 1;
	if (rc > 0)
		file_error(m, fold_err());
	else if (rc == 0 && changed(m, fold_in_name(in), id))
		rc = 1;
	else if (rc == 0 && input_unit(m, fold_in_name(in), unit, any) < 0)
		rc = -1;
	fold_in_close(in);
	free(tmp.key);
	return rc;
}

/*
 * Opens an item as a stream. A temporary file stays open in the item
 * until its round of the merge is over, so that a round given up for want
 * of descriptors can be tried again. Returns 0; -1 when the file cannot
 * be read (reported, the item dead); 1, nothing reported, when no
 * descriptor is left for it.
 */
static int
opensrc(struct merger *m, struct item *it, struct stream *s)
{
	int fd;

	memset(s, 0, sizeof *s);
	s->root = it->root;
	if (it->tmp) {
		rewind(it->tmp);
		if ((fd = dup(fileno(it->tmp))) < 0)
			return 1;
		s->in = fold_in_fdopen(fd, "temporary file");
		return 0;
	}
	errno = 0;
	if (!(s->in = opened(m, fold_in_open(it->path)))) {
		if (errno == EMFILE || errno == ENFILE)
			return 1;
		file_error(m, fold_err());
		it->dead = 1;
		return -1;
	}
	s->id = &it->id;
	return 0;
}

static void
closesrc(struct stream *s)
{
	if (s->in)
		fold_in_close(s->in);
	if (s->keycap)
		free(s->key);
}

/*
 * Descriptors a round of the merge needs besides its inputs: the
 * temporary file it writes (the FILE and the descriptor of its output),
 * the one it reads back (the FILE and the descriptor of its stream), and
 * a few to spare.
 */
#define SPARE_FDS 8

/*
 * How many descriptors are free, up to want: probing stops as soon as
 * enough are found, so a high limit costs no more than a low one.
 */
static size_t
freefds(size_t want)
{
	struct rlimit rl;
	size_t lim, fd, nfree = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > INT_MAX)
		lim = INT_MAX;
	else
		lim = rl.rlim_cur;
	for (fd = 0; fd < lim && nfree < want; fd++)
		if (fcntl((int)fd, F_GETFD) < 0 && errno == EBADF)
			nfree++;
	return nfree;
}

/*
 * How many inputs one round of the merge may hold open: what
 * RLIMIT_NOFILE leaves once the descriptors already open and SPARE_FDS
 * are counted out, at most FOLD_MERGE_FANIN, at least 2.
 */
static size_t
fanin(void)
{
	size_t nfree = freefds(FOLD_MERGE_FANIN + SPARE_FDS);

	if (nfree >= FOLD_MERGE_FANIN + SPARE_FDS)
		return FOLD_MERGE_FANIN;
	return nfree > SPARE_FDS + 2 ? nfree - SPARE_FDS : 2;
}

/*
 * One round of the merge: items[0..want) (but the dead) and, when not
 * NULL, the table, into the sink k, or (k NULL) into a new temporary file
 * *tmp. Returns 0; -1 on a fatal error; or 1, no input consumed, when the
 * descriptors ran out once *nopen inputs were open.
 */
static int
merge_round(struct merger *m, struct item *items, size_t want,
    struct ttab *tables, size_t ntables, struct sink *k, FILE **tmp,
    size_t *nopen)
{
	struct sink ts = { NULL, 0, 1, 1 };
	struct stream *s;
	size_t i, j;
	int r = 0, fd;

	*tmp = NULL;
	if (!k) {
		if (!(*tmp = fold_tmpfile()))
			return -1;
		if ((fd = dup(fileno(*tmp))) < 0) {
			fold_seterr("temporary file: %s", strerror(errno));
			fclose(*tmp);
			*tmp = NULL;
			return -1;
		}
		ts.out = fold_out_new(fd, "temporary file");
		k = &ts;
	}
	s = fold_reallocarray(NULL, want + ntables + 1, sizeof *s);
	for (i = j = 0; i < want && r <= 0; i++) {
		if (items[i].dead)
			continue;
		if ((r = opensrc(m, &items[i], &s[j])) == 0)
			j++;
	}
	*nopen = j;
	if (r <= 0) {
		for (i = 0; i < ntables; i++) {
			memset(&s[j], 0, sizeof s[j]);
			s[j++].tt = &tables[i];
		}
		r = kway(m, s, j, k);
	}
	for (i = 0; i < j; i++)
		closesrc(&s[i]);
	free(s);
	if (ts.out) {
		if (fold_out_close(ts.out) < 0 && r == 0)
			r = -1;
		if (r != 0) {
			fclose(*tmp);
			*tmp = NULL;
		}
	}
	return r;
}

/*
 * Merges items[0..*pn) and the tables into the sink k: rounds of at most
 * fan inputs are merged into temporary files first, as sort(1) does, each
 * result the first input of the next round, until one round can take
 * what is left. A round that runs out of descriptors anyway (the count
 * of fanin() is taken before, by a process that may open more) is given
 * up, nothing consumed, and tried again with fewer inputs. Returns 0, or
 * -1 on a fatal error.
 */
static int
rounds(struct merger *m, struct item *items, size_t *pn, size_t fan,
    struct ttab *tables, size_t ntables, struct sink *final)
{
	size_t nitems = *pn, want, j, k;
	FILE *tmp;
	int r;

	for (;;) {
		int last = nitems <= fan;

		want = last ? nitems : fan;
		r = merge_round(m, items, want, tables, last ? ntables : 0,
		    last ? final : NULL, &tmp, &j);
		if (r > 0) {
			/* out of descriptors: try again, j - 2 at a time */
			if (j < 4 || j - 2 >= fan)
				return fold_seterr("too few file descriptors to "
				    "merge with: %s", strerror(EMFILE));
			fan = j - 2;
			continue;
		}
		if (last || r < 0)
			return r;
		for (k = 0; k < want; k++)
			if (items[k].tmp)
				fclose(items[k].tmp);
		memmove(items + 1, items + want, (nitems - want) * sizeof *items);
		nitems -= want - 1;
		*pn = nitems;
		memset(&items[0], 0, sizeof items[0]);
		items[0].tmp = tmp;
	}
}

/* A group of inputs merged on its own by the tree of rounds. */
struct group {
	struct item *items;
	size_t n;
	FILE *tmp;		/* what it came to */
	struct fold_held held;
	char *err;		/* what stopped it */
	int nofd;		/* out of descriptors: nothing done */
};

struct groupjob {
	struct merger *m;
	struct group *g;
	int threaded;
};

static void
group_task(void *arg, size_t i)
{
	struct groupjob *j = arg;
	struct group *g = &j->g[i];
	struct merger gm;
	struct fold_diag d;
	size_t nopen;
	int r;

	holding(j->m, &gm, &d, &g->held, j->threaded);
	r = merge_round(&gm, g->items, g->n, NULL, 0, NULL, &g->tmp, &nopen);
	if (r > 0)
		g->nofd = 1;
	else if (r < 0)
		g->err = fold_strdup(fold_err());
}

/*
 * The rounds before the last, when their order does not matter: when the
 * counts of the sorted inputs are integers whose sum is at most 2^64-1, no
 * sum overflows and any order gives the same sums. The inputs are cut
 * into the groups the chain of rounds() would merge (fan, then fan - 1
 * while fan or more are left, the chain's result being each later
 * round's first input), but each group is merged on its own into a
 * temporary file, on up to jobs threads, and what each says is held and
 * then said in group order: the chain's warnings, in its order. Nothing is
 * read twice, where the chain reads all that came before again in each
 * round. The temporary files are merged further while they and the
 * inputs left over are more than one round takes.
 *
 * Leaves items[0..*pn) the temporary files, then the inputs left over,
 * for the last round. Returns 0, or -1 on a fatal error. When
 * descriptors run out, the chain is left to merge the items as they are.
 */
static int
tree(struct merger *m, struct item *items, size_t *pn, size_t fan,
    unsigned jobs)
{
	size_t n = *pn, at, ng = 0, i, t, nfree, nopen, want;
	struct group *g;
	struct groupjob gj;
	FILE *tmp;
	int rc = 0, r;

	if (n <= fan || fan < 3)
		return 0;
	g = fold_calloc(n / (fan - 1) + 1, sizeof *g);
	g[ng].items = items;
	g[ng++].n = at = fan;
	for (; n - at >= fan; at += fan - 1) {
		g[ng].items = items + at;
		g[ng++].n = fan - 1;
	}
	/*
	 * Each group's result holds a descriptor until the last round; each
	 * thread's round, fan and a few more. Fewer threads when they are
	 * not free; none (the chain) when one thread's are not.
	 */
	t = jobs < ng ? jobs : ng;
	nfree = freefds(ng + t * (fan + SPARE_FDS));
	t = nfree > ng ? (nfree - ng) / (fan + SPARE_FDS) : 0;
	if (t == 0) {
		free(g);
		return 0;
	}
	gj = (struct groupjob){ m, g, t > 1 };
	fold_jobs(ng, (unsigned)t, group_task, &gj);
	for (i = 0; i < ng && !g[i].nofd; i++)
		;
	if (i < ng)
		rc = 1;		/* out of descriptors: the chain instead */
	for (i = 0; i < ng && rc == 0; i++) {
		if (say(m, &g[i].held) < 0)
			rc = -1;
		else if (g[i].err)
			rc = fold_seterr("%s", g[i].err);
	}
	for (i = 0; i < ng; i++) {
		fold_held_free(&g[i].held);
		free(g[i].err);
		if (rc != 0 && g[i].tmp)
			fclose(g[i].tmp);
	}
	if (rc != 0) {
		free(g);
		return rc < 0 ? -1 : 0;
	}
	/* the groups' results, then the inputs left over */
	memmove(items + ng, items + at, (n - at) * sizeof *items);
	for (i = 0; i < ng; i++) {
		memset(&items[i], 0, sizeof items[i]);
		items[i].tmp = g[i].tmp;
	}
	free(g);
	n = ng + n - at;
	/* results merged (they hold no bad line) until one round takes all */
	while (n > fan) {
		want = n - fan + 1 < fan ? n - fan + 1 : fan;
		if ((r = merge_round(m, items, want, NULL, 0, NULL, &tmp,
		    &nopen)) < 0)
			return -1;
		if (r > 0)
			break;
		for (i = 0; i < want; i++)
			fclose(items[i].tmp);
		memmove(items + 1, items + want, (n - want) * sizeof *items);
		n -= want - 1;
		memset(&items[0], 0, sizeof items[0]);
		items[0].tmp = tmp;
	}
	*pn = n;
	return 0;
}

/* A line of a piece, for the table of its share. */
struct rec {
	uint64_t off;		/* its stack: in the piece's keys or bytes */
	uint32_t len;
	uint32_t hash;
	struct fold_count cnt;
};

/*
 * A piece of an unsorted file: the lines that begin in its bytes
 * [k * size, (k + 1) * size), read on a thread into a slot, their
 * stacks sent to the tables of their shares, what they said held.
 */
struct piece {
	size_t input;
	uint64_t k;
	struct slot *sl;	/* what it was read into */
	uint64_t lines;
	char unit[FOLD_UNIT_MAX + 1];	/* the first piece's unit line */
	int any;
	int rc;			/* 0; -1: a strict warning stopped it */
	int fail;		/* read failed, or a later unit line */
	struct fold_held held;
};

/*
 * What a piece is read into, kept from round to round: fresh memory for
 * every piece cost more in page faults than reading it.
 */
struct slot {
	char *buf, *keys;	/* its bytes; its stacks behind the root */
	size_t cap, nkeys, capkeys;
	struct rec **out;	/* by share */
	size_t *nout, *capout;
};

struct pieces {
	struct merger *m;
	const struct fold_merge_input *inputs;
	struct scanned *sc;
	unsigned jobs;
	uint64_t size;
	struct piece *p;	/* this round's */
	size_t np;
	struct slot *sl;	/* by piece of the round */
	struct ttab *t;		/* by share */
	int *over;		/* by share: a sum overflowed */
};

/*
 * Reads into *pbuf (of *pcap bytes, grown as need be) the bytes of the
 * lines that begin in piece k of the file fd of size bytes (pieces of
 * step bytes): from the first line start at k * step or after, at
 * *pstart in *pbuf, to the first at (k + 1) * step or after. Returns
 * where they end in *pbuf, or -1 when the file cannot be read.
 */
static ssize_t
read_piece(int fd, uint64_t size, uint64_t step, uint64_t k, char **pbuf,
    size_t *pcap, size_t *pstart)
{
	uint64_t from = k * step, to = from + step, at, start;
	size_t len = 0, cap = *pcap;
	char *buf = *pbuf, *nl;
	ssize_t got;
	int ended = 0;

	/* the byte before, so that a line starting at from is found */
	at = from > 0 ? from - 1 : 0;
	for (;;) {
		buf = fold_grow(buf, &cap, len + (1 << 16), 1);
		*pbuf = buf;
		*pcap = cap;
		got = pread(fd, buf + len, cap - len, (off_t)(at + len));
		if (got < 0)
			return -1;
		len += (size_t)got;
		if (got == 0 || at + len >= size)
			ended = 1;
		/* the end: the first line start at or past to */
		if (ended || (at + len > to && memchr(buf + (to - 1 - at), '\n',
		    at + len - (to - 1)) != NULL))
			break;
	}
	if (from == 0)
		start = 0;
	else if ((nl = memchr(buf, '\n', len)) != NULL)
		start = (uint64_t)(nl - buf) + 1;
	else
		start = len;
	if (start >= to - at || start >= len)		/* none begins here */
		return *pstart = 0;
	if (at + len > to && (nl = memchr(buf + (to - 1 - at), '\n',
	    at + len - (to - 1))) != NULL)
		len = (size_t)(nl - buf) + 1;
	*pstart = start;
	return (ssize_t)len;
}

/* Sends a stack to the table of its share. */
static void
send(struct slot *sl, unsigned jobs, uint64_t off, size_t len, uint32_t h,
    const struct fold_count *c)
{
	/* the high bits: the tables' slots are told by the low ones */
	unsigned t = (unsigned)((uint64_t)h * jobs >> 32);

	sl->out[t] = fold_grow(sl->out[t], &sl->capout[t], sl->nout[t] + 1,
	    sizeof *sl->out[t]);
	sl->out[t][sl->nout[t]++] = (struct rec){ off, (uint32_t)len, h, *c };
}

/*
 * Reads piece i of this round: its lines, split among the shares. A unit
 * line after a file's first piece fails it: what it is depends on the
 * lines before.
 */
static void
read_task(void *arg, size_t i)
{
	struct pieces *j = arg;
	struct piece *p = &j->p[i];
	struct slot *sl = p->sl = &j->sl[i];
	const struct fold_merge_input *x = &j->inputs[p->input];
	struct stream tmp = { 0 };
	struct merger gm;
	struct fold_diag d;
	struct fold_count c;
	const char *line, *end, *nl, *key;
	size_t len, klen, start;
	ssize_t n;
	int fd, k;

	holding(j->m, &gm, &d, &p->held, 1);
	tmp.root = x->root;
	sl->nkeys = 0;
	memset(sl->nout, 0, j->jobs * sizeof *sl->nout);
	if ((fd = open(x->path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    (n = read_piece(fd, (uint64_t)j->sc[p->input].id.size, j->size,
	    p->k, &sl->buf, &sl->cap, &start)) < 0) {
		if (fd >= 0)
			close(fd);
		p->fail = 1;
		return;
	}
	close(fd);
	for (line = sl->buf + start, end = sl->buf + n; line < end &&
	    !p->rc && !p->fail; line = nl + 1) {
		if (!(nl = memchr(line, '\n', (size_t)(end - line))))
			nl = end;
		len = (size_t)(nl - line);
		if (len > 0 && line[len - 1] == '\r')	/* as fold_in_line */
			len--;
		p->lines++;
		if (len > FOLD_LINE_MAX)
			p->fail = 1;
		else if ((k = stackline(&gm, &tmp, x->path, p->lines, line,
		    len, p->unit, &p->any, &key, &klen, &c)) < 0)
			p->rc = -1;
		else if (k == 2 && p->k > 0)
			p->fail = 1;
		else if (k == 1 && !x->root)
			send(sl, j->jobs, (uint64_t)(line - sl->buf), klen,
			    (uint32_t)fold_hash(key, klen), &c);
		else if (k == 1) {
			/* tmp's key is overwritten by the next line's */
			sl->keys = fold_grow(sl->keys, &sl->capkeys,
			    sl->nkeys + klen, 1);
			memcpy(sl->keys + sl->nkeys, key, klen);
			send(sl, j->jobs, sl->nkeys, klen,
			    (uint32_t)fold_hash(key, klen), &c);
			sl->nkeys += klen;
		}
	}
	free(tmp.key);
}

/* Adds this round's lines of share t to its table, in order. */
static void
add_task(void *arg, size_t t)
{
	struct pieces *j = arg;
	const struct piece *p;
	const struct rec *r;
	size_t i, k;

	for (i = 0; i < j->np && !j->over[t]; i++) {
		p = &j->p[i];
		for (k = 0; k < p->sl->nout[t]; k++) {
			r = &p->sl->out[t][k];
			if (tt_add(&j->t[t], (j->inputs[p->input].root ?
			    p->sl->keys : p->sl->buf) + r->off, r->len,
			    r->hash, &r->cnt) < 0) {
				j->over[t] = 1;
				break;
			}
		}
	}
}

static void
sort_task(void *arg, size_t t)
{
	tt_sort(&((struct pieces *)arg)->t[t]);
}

static void
slots_free(struct slot *sl, unsigned n, unsigned jobs)
{
	unsigned i, t;

	for (i = 0; i < n; i++) {
		for (t = 0; t < jobs; t++)
			free(sl[i].out[t]);
		free(sl[i].out);
		free(sl[i].nout);
		free(sl[i].capout);
		free(sl[i].buf);
		free(sl[i].keys);
	}
	free(sl);
}

/*
 * The unsorted inputs of sc[0..n) read on jobs threads, into a table
 * for each: in rounds, a piece of step bytes on each thread, its lines
 * sent by the hash of their stack to the table of its share; then each
 * thread adds its share's lines of the round to its table, in the order
 * of the pieces. Every stack is in one table, its counts added in the
 * order of the lines, and the memory is one table's and a piece a
 * thread: the tables, sorted and merged as streams, give what one table
 * gives. Done when the inputs are plain regular files (which can be read
 * again) of more than step bytes in all. The pieces, in order, are left
 * in *ppv (*npv): what they said and their lines, to be said, an input's
 * lines counted from its start. When a piece could not be read, names a
 * unit after the first, or a sum overflowed (one thread would have
 * stopped there), the tables are dropped and the caller reads the inputs
 * itself. Returns the number of tables (*pt), or 0.
 */
static size_t
load_pieces(struct merger *m, const struct fold_merge_input *inputs,
    struct scanned *sc, size_t n, unsigned jobs, uint64_t step,
    struct ttab **pt, struct piece **ppv, size_t *npv)
{
	struct pieces j = { m, inputs, sc, jobs, step, NULL, 0, NULL, NULL,
	    NULL };
	struct piece *pv = NULL;
	uint64_t bytes = 0, k;
	size_t i, nv = 0, r, t;
	int failed = 0;

	for (i = 0; i < n; i++) {
		if (sc[i].r != 0)
			continue;
		/* gzip and UTF-16 are read whole, by one thread */
		if (!sc[i].id.reg || !sc[i].plain)
			return 0;
		bytes += (uint64_t)sc[i].id.size;
	}
	if (jobs < 2 || bytes <= step)
		return 0;
	for (i = 0; i < n; i++)
		for (k = 0; sc[i].r == 0 && (k == 0 ||
		    k < ((uint64_t)sc[i].id.size + step - 1) / step); k++) {
			pv = fold_reallocarray(pv, nv + 1, sizeof *pv);
			memset(&pv[nv], 0, sizeof pv[nv]);
			pv[nv].input = i;
			pv[nv++].k = k;
		}
	j.t = fold_calloc(jobs, sizeof *j.t);
	j.over = fold_calloc(jobs, sizeof *j.over);
	j.sl = fold_calloc(jobs, sizeof *j.sl);
	for (i = 0; i < jobs; i++) {
		j.sl[i].out = fold_calloc(jobs, sizeof *j.sl[i].out);
		j.sl[i].nout = fold_calloc(jobs, sizeof *j.sl[i].nout);
		j.sl[i].capout = fold_calloc(jobs, sizeof *j.sl[i].capout);
	}
	for (r = 0; r < nv && !failed; r += jobs) {
		j.p = pv + r;
		j.np = nv - r < jobs ? nv - r : jobs;
		fold_jobs(j.np, jobs, read_task, &j);
		for (i = 0; i < j.np; i++)
			failed |= j.p[i].fail;
		if (!failed)
			fold_jobs(jobs, jobs, add_task, &j);
		for (t = 0; t < jobs; t++)
			failed |= j.over[t];
	}
	free(j.over);
	slots_free(j.sl, jobs, jobs);
	if (failed) {
		for (i = 0; i < nv; i++)
			fold_held_free(&pv[i].held);
		free(pv);
		for (t = 0; t < jobs; t++)
			tt_free(&j.t[t]);
		free(j.t);
		return 0;
	}
	fold_jobs(jobs, jobs, sort_task, &j);
	*pt = j.t;
	*ppv = pv;
	*npv = nv;
	return jobs;
}

/*
 * Says what the pieces of input i said, from piece *at of pv on, its
 * lines counted from its start, then checks it as load() would have: a
 * change while it was read, its unit. Returns 0, or -1 on a fatal error.
 */
static int
say_pieces(struct merger *m, const struct fold_merge_input *x,
    struct scanned *sc, size_t i, struct piece *pv, size_t npv, size_t *at)
{
	uint64_t base = 0;
	int any = 0;

	sc->unit[0] = '\0';
	for (; *at < npv && pv[*at].input == i; ++*at) {
		if (fold_held_say(&pv[*at].held, m->diag, base, said_file_error,
		    m) < 0 || pv[*at].rc < 0)
			return -1;
		if (pv[*at].k == 0)
			memcpy(sc->unit, pv[*at].unit, sizeof sc->unit);
		any |= pv[*at].any;
		base += pv[*at].lines;
	}
	if (changed(m, x->path, &sc->id))
		return 0;
	return input_unit(m, x->path, sc->unit, any);
}

/*
 * Adds the counts of the sorted tables t[0..n) to *total in the order of
 * their stacks, as if they were one table: sums of fractions depend on
 * the order of their terms. Returns 0, or -1 when the sum overflows.
 */
static int
tables_add(const struct ttab *t, size_t n, struct fold_count *total)
{
	size_t *at, k, min, i;
	int rc = 0, frac = 0;

	for (k = 0; k < n && !frac; k++)
		for (i = 0; i < t[k].len && !frac; i++)
			frac = t[k].ents[i].cnt.frac;
	/* integers add up to the same in any order, or overflow in any */
	for (k = 0; k < n && !frac; k++)
		for (i = 0; i < t[k].len; i++)
			if (fold_count_add(total, &t[k].ents[i].cnt) < 0)
				return -1;
	if (!frac)
		return 0;
	at = fold_calloc(n, sizeof *at);
	for (;;) {
		for (k = 0, min = n; k < n; k++)
			if (at[k] < t[k].len && (min == n ||
			    tent_cmp(&t[k].ents[at[k]], &t[min].ents[at[min]],
			    0) < 0))
				min = k;
		if (min == n)
			break;
		if (fold_count_add(total, &t[min].ents[at[min]++].cnt) < 0) {
			rc = -1;
			break;
		}
	}
	free(at);
	return rc;
}

/*
 * The threads of jobs: for FOLD_JOBS_AUTO, one per processor once the
 * regular files among the inputs come to FOLD_JOBS_AUTO_BYTES (jobs.h),
 * and one below, where threads cost more than they save (two files of a
 * few KB took 0.92 ms of processor time on threads, 0.75 on one). Their
 * sizes on disk, as the other tools count their inputs', from a stat of
 * each until then.
 */
static unsigned
merge_jobs(const struct fold_merge_input *in, size_t n, unsigned jobs)
{
	uint64_t sum = 0;
	struct stat sb;
	size_t i;

	if (jobs != FOLD_JOBS_AUTO)
		return jobs;
	for (i = 0; i < n && sum < FOLD_JOBS_AUTO_BYTES; i++)
		if (in[i].path && strcmp(in[i].path, "-") != 0 &&
		    stat(in[i].path, &sb) == 0 && S_ISREG(sb.st_mode))
			sum += (uint64_t)sb.st_size;
	return sum < FOLD_JOBS_AUTO_BYTES ? 1 : fold_jobs_count(jobs);
}

int
fold_merge(struct fold_out *out, const struct fold_merge_input *inputs,
    size_t n, const struct fold_merge_opt *opt, struct fold_diag *diag)
{
	struct merger m = { .opt = opt, .diag = diag };
	struct ttab table = { 0 }, *tables = NULL;
	struct piece *pv = NULL;
	struct item *items = fold_reallocarray(NULL, n ? n : 1, sizeof *items);
	struct scanned *sc = fold_calloc(n ? n : 1, sizeof *sc), *x;
	struct fold_count total = FOLD_COUNT_INIT;
	unsigned jobs = merge_jobs(inputs, n, opt->jobs), ahead = 1;
	size_t nitems = 0, i, fan, ntables = 0, npv = 0, at = 0, t;
	int rc = -1, exact = 1;

	/*
	 * The first pass over every input on the threads, what each said
	 * held: said here, in the order of the inputs, with what follows.
	 */
	if (jobs > 1 && n > 0) {
		/* each thread holds a descriptor: no more than are free */
		size_t f = freefds(jobs + SPARE_FDS);
		if (f >= jobs + SPARE_FDS)
			ahead = jobs;
		else if (f > SPARE_FDS + 1)
			ahead = (unsigned)(f - SPARE_FDS);
	}
	if (ahead > 1) {
		struct scanjob sj = { &m, inputs, sc };
		fold_jobs(n, ahead, scan_task, &sj);
		ntables = load_pieces(&m, inputs, sc, n, ahead,
		    opt->piece ? opt->piece : MERGE_PIECE, &tables, &pv, &npv);
	}
	for (i = 0; i < n; i++) {
		x = &sc[i];
		if (ahead > 1)
			(void)say(&m, &x->held);	/* strict: x->r is 0 */
		else
			scan(&m, inputs[i].path, x);
		if (x->r < 0)
			continue;
		if (x->r == 1) {
			/* read whole: its unit is known (else load() tells) */
			if (input_unit(&m, inputs[i].path, x->unit, x->have) < 0)
				goto done;
			/* the total only matters to --normalize, and tree() */
			if (x->total.frac)
				exact = 0;
			if (fold_count_add(&total, &x->total) < 0) {
				if (opt->normalize) {
					fold_seterr("--normalize: the total of "
					    "the inputs passes 2^64-1");
					goto done;
				}
				exact = 0;
			}
			memset(&items[nitems], 0, sizeof items[nitems]);
			items[nitems].path = inputs[i].path;
			items[nitems].root = inputs[i].root;
			items[nitems].id = x->id;
			nitems++;
			continue;
		}
		/* unsorted or not a regular file: into the table, or read
		   on the threads already (load_pieces) */
		if (ntables ? say_pieces(&m, &inputs[i], x, i, pv, npv,
		    &at) < 0 : load(&m, &table, &inputs[i], &x->id) < 0)
			goto done;
	}
	if (!ntables) {
		tt_sort(&table);
		tables = &table;
		ntables = 1;
	}
	if (opt->normalize && tables_add(tables, ntables, &total) < 0) {
		fold_seterr("--normalize: the total of the inputs passes "
		    "2^64-1");
		goto done;
	}

	struct sink k = { out, 1, 1, 0 };
	/* counts normalized to a total are no longer in the inputs' unit */
	fold_unit_out_init(&m.uo, opt->normalize ? NULL : opt->unit ?
	    opt->unit : m.unit, 1);
	if (opt->normalize) {
		double tv = fold_count_val(&total);
		k.factor = tv > 0 ? opt->norm_total / tv : 0;
	} else {
		k.factor = opt->scale / opt->per;
		k.exact = opt->per == 1 && opt->scale == (double)(uint64_t)opt->scale;
	}
	fan = fanin();
	if (exact && tree(&m, items, &nitems, fan, jobs) < 0)
		goto done;
	if (rounds(&m, items, &nitems, fan, tables, ntables, &k) == 0) {
		if (m.stacks > 0)	/* after a stack, or none at all */
			fold_unit_out_end(&m.uo, out);
		rc = m.file_failed;
	}
	if (opt->stacks)
		*opt->stacks = m.stacks;
done:
	for (i = 0; i < n; i++)
		fold_held_free(&sc[i].held);
	free(sc);
	for (i = 0; i < npv; i++)
		fold_held_free(&pv[i].held);
	free(pv);
	for (t = 0; tables && tables != &table && t < ntables; t++)
		tt_free(&tables[t]);
	if (tables != &table)
		free(tables);
	for (i = 0; i < nitems; i++)
		if (items[i].tmp)
			fclose(items[i].tmp);
	free(items);
	tt_free(&table);
	return rc;
}

struct fold_pathroot {
	pcre2_code *re;
	pcre2_match_data *md;
	char *pattern;		/* for messages */
};

struct fold_pathroot *
fold_pathroot_new(const char *pattern)
{
	struct fold_pathroot *pr;
	PCRE2_SIZE eoff;
	int err;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern,
	    PCRE2_ZERO_TERMINATED, 0, &err, &eoff, NULL);

	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		fold_seterr("'%s': %s at offset %zu", pattern, (char *)msg,
		    (size_t)eoff);
		return NULL;
	}
	pr = fold_calloc(1, sizeof *pr);
	pr->re = re;
	pr->md = pcre2_match_data_create_from_pattern(re, NULL);
	pr->pattern = fold_strdup(pattern);
	return pr;
}

void
fold_pathroot_free(struct fold_pathroot *pr)
{
	if (!pr)
		return;
	pcre2_match_data_free(pr->md);
	pcre2_code_free(pr->re);
	free(pr->pattern);
	free(pr);
}

int
fold_pathroot(struct fold_pathroot *pr, const char *path, char **root)
{
	PCRE2_SIZE *ov;
	uint32_t ncap = 0;
	size_t i, g;
	char *s;
	int rc;

	*root = NULL;
	if (!path)
		return 0;
	rc = pcre2_match(pr->re, (PCRE2_SPTR)path, strlen(path), 0, 0, pr->md,
	    NULL);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(rc, msg, sizeof msg);
		return fold_seterr("'%s': matching '%s': %s", pr->pattern,
		    path, (const char *)msg);
	}
	if (rc < 0)
		return 0;
	pcre2_pattern_info(pr->re, PCRE2_INFO_CAPTURECOUNT, &ncap);
	g = ncap > 0 ? 1 : 0;
	ov = pcre2_get_ovector_pointer(pr->md);
	if ((int)g >= rc || ov[2 * g] == PCRE2_UNSET ||
	    ov[2 * g + 1] <= ov[2 * g])
		return 0;
	s = fold_strndup(path + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
	for (i = 0; s[i]; i++) {
		if (s[i] == ';')
			s[i] = ':';
		else if (s[i] == '\n' || s[i] == '\r')
			s[i] = ' ';
	}
	*root = s;
	return 1;
}
