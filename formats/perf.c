#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/hash.h"
#include "libfold/intern.h"
#include "libfold/jobs.h"
#include "libfold/str.h"
#include "libfold/unit.h"
#include "formats/perf.h"

/*
 * One pass over the lines, no allocation per line: frame names are cut
 * out of the line in place and interned (a copy is made only when a name
 * must be rewritten), a sample's frame ids collect in a reused array, and
 * the finished sample goes into the stack table.
 */

/*
 * Frame lines repeat: the same return address in the same code prints the
 * same text. A direct-mapped cache from the line's text (from the address
 * on, trimmed) to the frame id skips the parsing, the cleaning and the
 * interning for them: a hash and a compare.
 */
enum { CACHE_BITS = 14, TEXTMAX = 118 };

/*
 * The cache starts at 2^CACHE_MIN entries and grows fourfold, up to
 * 2^CACHE_BITS, whenever as many lines as it has entries were written
 * to it: a small input (one of a fleet's, each read by a reader of its
 * own) touches 32 KiB, not 2 MiB.
 */
enum { CACHE_MIN = 8 };

struct centry {
	uint32_t id;		/* FOLD_NOFRAME: a frame the reference skips */
	uint32_t gen;		/* not the reader's (see spare): empty */
	unsigned char len;	/* of text */
	unsigned char java;
	char text[TEXTMAX];
};

/*
 * The hash of a frame line's text s[0..n) for the cache: of its first 24
 * bytes and its length. The address and what follows it tell lines apart
 * (the rest is the name of what is at the address, and its dso), and the
 * hash is a fifth of the time the reader spends on a line it finds.
 */
static inline uint64_t
linehash(const char *s, size_t n)
{
	return fold_hash(s, n < 24 ? n : 24) ^ n * 0x9e3779b97f4a7c15ULL;
}

/*
 * Threads seen in sample headers, by the header's start "COMM PID/TID ":
 * where its fields were, and the name of the sample's root frame. Samples
 * of a few threads interleave; a thread's next header is not searched.
 */
enum { THREAD_BITS = 6 };

struct thread {
	char text[80];
	size_t len;		/* of text; 0: empty entry */
	size_t commlen, pid, pidlen, tid, tidlen;
	uint32_t pname;		/* FOLD_NOFRAME: not made yet */
	int java;
};

struct ev {
	char *name;
	char *base;		/* the name without its modifiers ("cycles") */
	size_t len;
	uint64_t samples;
	int kept;
	/* where a part first saw it: its piece's origin, its sample then */
	uint64_t at, idx;
};

/* One event seen in the input, in order of first appearance. */
struct perf_event {
	const char *name;	/* "cycles", "cpu-clock:ppp", "" when absent */
	uint64_t samples;	/* samples seen, kept or not */
	int kept;		/* its samples went into the table */
};

struct perf_reader {
	struct perf_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	int annotate;		/* any option that needs the dso looked at */

	struct ev *ev;
	size_t nev, capev;
	int chosen;		/* the kept event is decided */
	struct perf_event *pub;

	/* a reader of parts of an input (see format.h) */
	int part;
	int undecided;		/* its reader had not chosen an event */
	int needr;		/* and it saw one that it cannot choose */
	uint64_t origin;	/* of the piece being read */

	/* the sample being read */
	int insample;		/* a header was seen and not closed */
	int keep;		/* and it is kept */
	int multiline;		/* lines followed its header */
	int flat;		/* its frame was on its header line (no -g) */
	int java;		/* comm starts with "java" */
	uint64_t hdrline, period;
	uint32_t pname;
	uint32_t *fr;		/* frame ids, leaf first */
	size_t nfr, capfr;
	/*
	 * Kept samples on their way to the table, added in a few samples'
	 * time; all of them at a warning and at the end of an input.
	 */
	struct fold_addq *addq;
	uint32_t *outer;	/* the parts of an "A->B->C" frame before its
				   last, outermost first (see arrows()) */
	size_t nouter, capouter;
	uint64_t nsamples;	/* sample headers seen, over every input */

	/* a frame waiting for its source line (--srcline, --context) */
	int lastframe;		/* the previous line was a frame */
	int lastpushed;		/* and its id is the last in fr */
	int pending, pendsrc;
	char *pend;
	size_t pendlen, pendcap;
	uint32_t *after;	/* pushed after the pending frame */
	size_t nafter, capafter;

	struct centry *cache;	/* see frame() */
	unsigned cachebits;	/* 2^cachebits entries */
	uint32_t gen;		/* of its entries, 1 or more */
	size_t cachefills;	/* entries written at this size */
	struct thread thread[1 << THREAD_BITS];
	char *tmp;		/* scratch for rewritten names */
	size_t tmpcap;

	int blanks;		/* this input separates samples by blank lines */
	/*
	 * The line of the header of a last sample that had frames but no
	 * closing blank line, in an input whose other samples did end with
	 * one, which was therefore not counted (the input looks cut short);
	 * 0 when there was none. In an input without any blank line after a
	 * sample (a single sample, or blank lines stripped), each header
	 * ends the sample before it and the last sample is counted.
	 */
	uint64_t unterminated;
	const char *fname;
	uint64_t lineno;
	struct fold_diag *diag;
};

/*
 * The first blank at or after s[i], or n; and the first byte that is not
 * a blank. Header fields and the indentation of frames are short runs of
 * bytes: eight at a time, then byte by byte from where the word test
 * stopped (it looks for any byte below '!' and for any byte but ' ').
 */
static inline size_t
toblank(const char *s, size_t i, size_t n)
{
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		for (; i + 8 <= n; i += 8) {
			uint64_t x = fold_load64(s + i);
			uint64_t z = (x - 0x2121212121212121ULL) & ~x &
			    0x8080808080808080ULL;
			/* the lowest byte flagged is below '!': exact */
			if (z) {
				i += __builtin_ctzll(z) >> 3;
				break;
			}
		}
	while (i < n && !fold_isspace(s[i]))
		i++;
	return i;
}

static inline size_t
skipblank(const char *s, size_t i, size_t n)
{
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		for (; i + 8 <= n; i += 8) {
			uint64_t x = fold_load64(s + i) ^ 0x2020202020202020ULL;
			if (x) {
				i += __builtin_ctzll(x) >> 3;
				break;
			}
		}
	while (i < n && fold_isspace(s[i]))
		i++;
	return i;
}

/*
 * A cache of 2^bits empty entries (the largest, 2 MiB, a big array),
 * written before it is read: a page read first maps the zero page, and
 * replacing it at the first write costs, once there are threads, a TLB
 * flush on every other processor.
 */
static struct centry *
cache_new(unsigned bits)
{
	struct centry *c = fold_big_alloc((size_t)1 << bits, sizeof *c);

	memset(c, 0, ((size_t)1 << bits) * sizeof *c);
	return c;
}

static void
cache_free(struct centry *c, unsigned bits)
{
	fold_big_free(c, (size_t)1 << bits, sizeof *c);
}

/*
 * A cache a reader was done with, kept by its thread for the next reader
 * there: the inputs of a fleet (--files-from, -j) are read each by a
 * reader of its own, and a cache of 2 MiB written anew for each, its
 * pages faulted in, cost a fifth of the processor time of a file of
 * 400 KB. A kept cache is not emptied: its entries are of the readers
 * before, each a generation, and empty for the next; but for a reader
 * that interns in the same table of frames as the last (the inputs a
 * thread reads, collapse.c), for which they are good as they are: the
 * readers of one table are one run's, of the same options.
 */
struct spare {
	struct centry *cache;
	unsigned bits;
	uint32_t gen;		/* of the reader that had it last */
	uint64_t frames;	/* its table's fold_intern_serial */
};

static void *
spare_make(void)
{
	return fold_calloc(1, sizeof(struct spare));
}

static void
spare_drop(void *p)
{
	struct spare *sp = p;

	cache_free(sp->cache, sp->bits);
	free(sp);
}

static struct fold_perthread spares = FOLD_PERTHREAD(spare_make, spare_drop);

/* r's cache: its thread's kept one, or a new one. */
static void
cache_take(struct perf_reader *r)
{
	struct spare *sp = fold_perthread(&spares);

	r->cachefills = 0;
	if (!sp || !sp->cache) {
		r->cache = cache_new(CACHE_MIN);
		r->cachebits = CACHE_MIN;
		r->gen = 1;
		return;
	}
	r->cache = sp->cache;
	r->cachebits = sp->bits;
	sp->cache = NULL;
	if (sp->frames == fold_intern_serial(r->frames))
		r->gen = sp->gen;
	else if ((r->gen = sp->gen + 1) == 0) {	/* after 2^32 readers */
		memset(r->cache, 0, ((size_t)1 << r->cachebits) *
		    sizeof *r->cache);
		r->gen = 1;
	}
}

/* Gives r's cache to its thread to keep, if it has none as large. */
static void
cache_give(struct perf_reader *r)
{
	struct spare *sp;

	if (!r->cache)
		return;
	if ((sp = fold_perthread(&spares)) != NULL &&
	    (!sp->cache || sp->bits < r->cachebits)) {
		cache_free(sp->cache, sp->bits);
		sp->cache = r->cache;
		sp->bits = r->cachebits;
		sp->gen = r->gen;
		sp->frames = fold_intern_serial(r->frames);
	} else {
		cache_free(r->cache, r->cachebits);
	}
	r->cache = NULL;
}

static void *
perf_open(const void *optp, struct fold_stacks *st)
{
	const struct perf_opt *opt = optp;
	struct perf_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	if (r->opt.tid)
		r->opt.pid = 0;
	if (r->opt.context)
		r->opt.inlined = 1;
	r->st = st;
	r->addq = fold_addq_new(st);
	r->frames = fold_stacks_frames(st);
	r->annotate = opt->kernel || opt->jit || opt->inlined ||
	    opt->context || opt->srcline;
	/* names join source lines in these modes: no cache */
	if (!r->opt.srcline && !r->opt.context)
		cache_take(r);
	return r;
}

static void
perf_close(void *rp)
{
	struct perf_reader *r = rp;
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nev; i++) {
		free(r->ev[i].name);
		free(r->ev[i].base);
	}
	free(r->ev);
	free(r->pub);
	free(r->fr);
	fold_addq_free(r->addq);
	free(r->outer);
	free(r->after);
	free(r->pend);
	free(r->tmp);
	cache_give(r);
	free(r);
}

/*
 * The sample headers read so far, over every input, whatever their event
 * and whether they were counted: what tells perf script output from
 * other text.
 */
static uint64_t
perf_samples(const struct perf_reader *r)
{
	return r->nsamples;
}

/* The events seen so far (valid until the next read). */
static const struct perf_event *
perf_events(const struct perf_reader *r, size_t *n)
{
	struct perf_reader *w = (struct perf_reader *)r;
	size_t i;

	w->pub = fold_reallocarray(w->pub, r->nev + 1, sizeof *w->pub);
	for (i = 0; i < r->nev; i++) {
		w->pub[i].name = r->ev[i].name;
		w->pub[i].samples = r->ev[i].samples;
		w->pub[i].kept = r->ev[i].kept;
	}
	*n = r->nev;
	return w->pub;
}

/* Room for n bytes in the scratch buffer. */
static char *
scratch(struct perf_reader *r, size_t n)
{
	if (n > r->tmpcap) {
		r->tmpcap = n < 256 ? 256 : n * 2;
		free(r->tmp);
		r->tmp = fold_malloc(r->tmpcap);
	}
	return r->tmp;
}

/*
 * --event-filter=cycles keeps "cycles" and also "cycles:ppp", "cycles:u":
 * the event with perf's modifier letters after a colon.
 */
static int
evmatch(const char *filter, const char *name, size_t len)
{
	size_t fl = strlen(filter), i;

	if (len == fl)
		return memcmp(filter, name, len) == 0;
	if (len < fl + 2 || memcmp(filter, name, fl) != 0 || name[fl] != ':')
		return 0;
	for (i = fl + 1; i < len; i++)
		if (!strchr("ukhIGHpPSDWeb", name[i]))
			return 0;
	return 1;
}

/* Counts a sample of event name[0..len) and says whether it is kept. */
static int
event(struct perf_reader *r, const char *name, size_t len)
{
	size_t i;
	struct ev *e;

	for (i = 0; i < r->nev; i++)
		if (r->ev[i].len == len && memcmp(r->ev[i].name, name, len) == 0)
			break;
	if (i == r->nev) {
		r->ev = fold_grow(r->ev, &r->capev, r->nev + 1, sizeof *r->ev);
		e = &r->ev[r->nev++];
		e->name = fold_strndup(name, len);
		e->base = fold_strndup(name, strcspn(e->name, ":"));
		e->len = len;
		e->samples = 0;
		e->at = r->origin;
		e->idx = r->nsamples;
		if (len == 0)		/* no event field: never filtered */
			e->kept = 1;
		else if (r->opt.event)
			e->kept = evmatch(r->opt.event, name, len);
		else if (r->undecided)	/* the first is before this part? */
			e->kept = 0, r->needr = 1;
		else if (!r->chosen)	/* the first event seen is kept */
			e->kept = r->chosen = 1;
		else
			e->kept = 0;
	}
	e = &r->ev[i];
	e->samples++;
	return e->kept && !r->opt.list;
}

static inline void
pushid(struct perf_reader *r, uint32_t id)
{
	if (r->nfr == r->capfr)	/* a frame at a time: the call is rare */
		r->fr = fold_grow(r->fr, &r->capfr, r->nfr + 1, sizeof *r->fr);
	r->fr[r->nfr++] = id;
}

static void
flushpending(struct perf_reader *r)
{
	size_t i;

	if (r->pending) {
		pushid(r, fold_intern(r->frames, r->pend, r->pendlen));
		r->pending = 0;
		for (i = 0; i < r->nafter; i++)
			pushid(r, r->after[i]);
		r->nafter = 0;
	}
}

/* Closes the current sample, adding it to the table when it is kept. */
static int
endsample(struct perf_reader *r)
{
	struct fold_count c;
	uint32_t **room, *ids;
	size_t i, n, *cap;

	flushpending(r);
	if (r->insample && r->keep) {
		n = r->nfr + 1;
		room = fold_addq_room(r->addq, &cap);
		if (n > *cap)	/* a sample at a time: the call is rare */
			*room = fold_grow(*room, cap, n, sizeof **room);
		ids = *room;
		ids[0] = r->pname;
		for (i = 0; i < r->nfr; i++)
			ids[n - 1 - i] = r->fr[i];
		c = fold_count_u64(r->opt.samples ? 1 : r->period);
		if (fold_addq_push(r->addq, n, &c, r->fname, r->hdrline) < 0)
			return -1;
	}
	r->insample = r->keep = r->multiline = r->flat = 0;
	r->nfr = 0;
	r->lastframe = 0;
	return 0;
}

static int
badline(struct perf_reader *r, const char *s, size_t n, const char *why)
{
	char ex[64];
	size_t i, j;

	for (i = j = 0; i < n && j < sizeof ex - 5; i++) {
		unsigned char c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			ex[j++] = c;
		} else {
			snprintf(ex + j, 5, "\\x%02x", c);
			j += 4;
		}
	}
	ex[j] = '\0';
	/* an overflow of a sample before it comes first */
	if (fold_addq_flush(r->addq) < 0)
		return -1;
	return fold_warn(r->diag, r->fname, r->lineno, "%s: \"%s%s\"", why, ex,
	    i < n ? "..." : "");
}

/*
 * Where a name loses its argument list. The reference cuts at the first
 * '(' (keeping "(anonymous namespace)", and whole Go method names such as
 * "net/http.(*conn).serve"). That cut is kept whenever what comes before
 * it holds no template, lambda or operator, so results stay the same; in
 * those three cases the first '(' outside <...> and {...} that is not
 * part of "operator()" or of an enclosing function ("f(int)::{lambda..}")
 * is cut instead: "std::function<void (int)>::operator()".
 */
static size_t
cutargs(const char *f, size_t n)
{
	const char *first = NULL, *p, *q;
	size_t i, j, depth;

	for (p = f; (p = memchr(p, '(', f + n - p)) != NULL; p++)
		if (!fold_startswith(p, f + n - p, "(anonymous namespace)")) {
			first = p;
			break;
		}
	if (!first)
		return n;
	/* a Go method: ".(" and later ")." */
	if ((p = memmem(f, n, ".(", 2)) != NULL &&
	    memmem(p + 2, f + n - p - 2, ").", 2) != NULL)
		return n;
	if (!memchr(f, '<', first - f) && !memchr(f, '{', first - f) &&
	    !memmem(f, first - f, "operator", 8)) {
		/* unless the parenthesis closes before "::": "f(int)::{lambda" */
		p = memchr(first, ')', f + n - first);
		if (!p || !fold_startswith(p + 1, f + n - p - 1, "::"))
			return first - f;
	}
	depth = 0;
	for (i = 0; i < n; i++) {
		char c = f[i];
		if (c == 'o' && fold_startswith(f + i, n - i, "operator") &&
		    (i == 0 || !fold_isident(f[i - 1]))) {
			i += 8;
			if (fold_startswith(f + i, n - i, "()"))
				i += 2;
			else
				while (i < n && strchr("<>=!+-*/%^&|~,[]", f[i]) &&
				    f[i] != '\0')
					i++;
			i--;
		} else if (c == '<' || c == '{') {
			depth++;
		} else if (c == '>' || c == '}') {
			if (depth == 0)
				break;
			depth--;
		} else if (c == '(' && depth == 0) {
			if (fold_startswith(f + i, n - i, "(anonymous namespace)")) {
				i += 20;
				continue;
			}
			/* its closing parenthesis, then "::" or not */
			size_t d = 0;
			for (j = i; j < n; j++) {
				if (f[j] == '(')
					d++;
				else if (f[j] == ')' && --d == 0)
					break;
			}
			if (j < n && fold_startswith(f + j + 1, n - j - 1, "::")) {
				i = j;
				continue;
			}
			return i;
		}
	}
	if (i == n && depth == 0)
		return n;
	q = first;
	return q - f;
}

/* "[kernel.kallsyms]", "vmlinux", "vmlinux-6.1.0-13-amd64", "ext4.ko.xz" */
static int
iskernel(const char *m, size_t n)
{
	const char *b = memrchr(m, '/', n);
	size_t bn = b ? m + n - b - 1 : n;

	b = b ? b + 1 : m;
	if (fold_contains(m, n, "unknown"))
		return 0;
	return (n > 0 && m[0] == '[') || fold_endswith(m, n, "vmlinux") ||
	    fold_startswith(b, bn, "vmlinux") || fold_endswith(m, n, ".ko") ||
	    fold_endswith(m, n, ".ko.xz") || fold_endswith(m, n, ".ko.gz") ||
	    fold_endswith(m, n, ".ko.zst");
}

/* digits[lo..hi) all decimal and at least one */
static int
alldig(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!fold_isdigit(s[i]))
			return 0;
	return 1;
}

/* "perf-1234.map" (perf map of a JIT) or "jitted-1234-5.so" (perf inject) */
static int
isjit(const char *m, size_t n)
{
	const char *b = memrchr(m, '/', n);
	size_t bn;

	b = b ? b + 1 : m;
	bn = m + n - b;
	if (fold_startswith(b, bn, "perf-") && fold_endswith(b, bn, ".map"))
		return alldig(b + 5, bn - 9);
	if (fold_startswith(b, bn, "jitted-") && fold_endswith(b, bn, ".so")) {
		const char *d = memchr(b + 7, '-', bn - 7);
		return d && alldig(b + 7, d - b - 7) &&
		    alldig(d + 1, b + bn - 3 - d - 1);
	}
	return 0;
}

/* where the reference runs addr2line: not a JIT map, the kernel, [x] */
static int
isuser(const char *m, size_t n)
{
	const char *p;

	if (fold_contains(m, n, "kernel."))
		return 0;
	if ((p = memchr(m, '[', n)) != NULL && p + 1 < m + n && p[1] != ']' &&
	    memchr(p + 1, ']', m + n - p - 1))
		return 0;
	for (p = m; (p = memmem(p, m + n - p, "perf-", 5)) != NULL; p++) {
		const char *d = p + 5;
		while (d < m + n && fold_isdigit(*d))
			d++;
		if (d > p + 5 && d + 4 <= m + n && d[1] == 'm' && d[2] == 'a' &&
		    d[3] == 'p')
			return 0;
	}
	return 1;
}

static int
javaclass(const char *f, size_t n)
{
	size_t i;

	/* "Lpkg/Class;.method...": a JVM class descriptor (';' may
	   already be ':') */
	if (n < 4 || f[0] != 'L')
		return 0;
	for (i = 1; i < n && f[i] != ';' && f[i] != ':'; i++)
		if (f[i] == ' ' || f[i] == '(')
			return 0;
	return i < n && memchr(f, '/', i);
}

/*
 * The frame-line cache: an entry per hash of a line's trimmed text
 * s[0..tn). Sets *slot to the entry that text would use (NULL when it is
 * not cacheable) and returns 1 when the entry holds that very text: its
 * frame is then pushed, with no parse.
 */
static inline __attribute__((always_inline)) int
cache_hit(struct perf_reader *r, const char *s, size_t tn,
    const uint64_t *hash, struct centry **slot)
{
	struct centry *e;

	*slot = NULL;
	if (tn == 0 || tn > TEXTMAX || !r->cache)
		return 0;
	e = &r->cache[(hash ? *hash : linehash(s, tn)) >> (64 - r->cachebits)];
	*slot = e;
	if (e->gen != r->gen || e->len != tn || e->java != r->java ||
	    !fold_same(e->text, s, tn))
		return 0;
	if ((r->lastpushed = e->id != FOLD_NOFRAME))
		pushid(r, e->id);
	return 1;
}

/*
 * The dso: the parenthesized group ending s[0..*n), after a space, its
 * parentheses balanced. Sets *m and *mlen (*m stays NULL when there is
 * none) and cuts it and the space off *n.
 */
static void
split_dso(const char *s, size_t *n, const char **m, size_t *mlen)
{
	const char *open;
	size_t i, d = 0;

	if (*n == 0 || s[*n - 1] != ')')
		return;
	open = memrchr(s, '(', *n - 1);
	if (open && memchr(open, ')', s + *n - 1 - open)) {
		for (i = *n; i-- > 0;) {
			if (s[i] == ')')
				d++;
			else if (s[i] == '(' && --d == 0)
				break;
		}
		open = i < *n && d == 0 ? s + i : NULL;
	}
	if (open && open > s && open[-1] == ' ') {
		*m = open + 1;
		*mlen = s + *n - 1 - *m;
		*n = open - 1 - s;
	}
}

/*
 * The symbol of s[0..n) (what is left of the line after the address and
 * the dso): after the blanks, a lone blank when only blanks remain before
 * a dso, "[unknown]" when nothing does; "+0x1c", its offset, cut off.
 */
static void
split_symbol(const char *s, size_t n, int hasdso, const char **f,
    size_t *flen)
{
	size_t i, w;

	for (w = 0; w < n && fold_isspace(s[w]); w++)
		;
	if (w < n) {
		*f = s + w;
		*flen = n - w;
	} else if (hasdso && n > 0) {
		*f = s + n - 1;
		*flen = 1;
	} else {
		*f = "[unknown]";
		*flen = 9;
	}
	for (i = *flen; i > 0 && (fold_isdigit((*f)[i - 1]) ||
	    ((*f)[i - 1] >= 'a' && (*f)[i - 1] <= 'f')); i--)
		;
	if (i < *flen && i >= 3 && (*f)[i - 1] == 'x' && (*f)[i - 2] == '0' &&
	    (*f)[i - 3] == '+')
		*flen = i - 3;
}

/*
 * The name of an [unknown] symbol, written to t: "[dso base name]", or
 * "[unknown]" (*unknown set) when the dso is unknown too; with --addrs,
 * the address a[0..alen) inside. Returns its length, or -1 when it would
 * hold a NUL byte.
 */
static long
unknown_name(struct perf_reader *r, char *t, const char *a, size_t alen,
    const char *m, size_t mlen, int *unknown)
{
	const char *b = "unknown", *p;
	size_t bn = 7, flen, i, w;

	if (m && !(mlen == 9 && memcmp(m, "[unknown]", 9) == 0)) {
		p = memrchr(m, '/', mlen);
		b = p ? p + 1 : m;
		bn = m + mlen - b;
	} else {
		*unknown = 1;
	}
	if (memchr(b, '\0', bn))
		return -1;
	t[0] = '[';
	memcpy(t + 1, b, bn);
	flen = bn + 1;
	if (r->opt.addrs) {
		memcpy(t + flen, " <", 2);
		memcpy(t + flen + 2, a, alen);
		memcpy(t + flen + 2 + alen, ">", 1);
		flen += alen + 3;
	}
	t[flen++] = ']';
	for (i = w = 0; i < flen; i++)
		if (t[i] != '"' && t[i] != '\'')
			t[w++] = t[i] == ';' ? ':' : t[i];
	return w;
}

/*
 * A symbol made a frame name as the reference makes it: arguments cut,
 * ';' made ':', quotes dropped (into t when anything changes), and the
 * 'L' of a Java class path dropped. Returns 0, or -1 when the name would
 * hold a NUL byte.
 */
static int
clean_name(struct perf_reader *r, char *t, const char **fp, size_t *flenp,
    const char *m, size_t mlen)
{
	const char *f = *fp;
	size_t flen = *flenp, i, w;
	int needcopy = 0;

	for (i = 0; i < flen; i++) {
		char c = f[i];
		if (c == ';' || c == '"' || c == '\'' || c == '(' ||
		    c == '\0') {
			if (c == '\0')
				return -1;
			needcopy = 1;
		}
	}
	if (needcopy) {
		flen = cutargs(f, flen);
		for (i = w = 0; i < flen; i++) {
			char c = f[i];
			if (c == ';')
				t[w++] = ':';
			else if (c != '"' && c != '\'')
				t[w++] = c;
		}
		f = t;
		flen = w;
	}
	if (flen > 1 && f[0] == 'L' && (r->java ||
	    (m && isjit(m, mlen) && javaclass(f, flen))) &&
	    memchr(f, '/', flen)) {
		f++;
		flen--;
	}
	*fp = f;
	*flenp = flen;
	return 0;
}

/* The annotation of --inline, --kernel or --jit due to f: "_[i]" ..., or NULL. */
static const char *
annotation(const struct perf_reader *r, const char *f, size_t flen,
    const char *m, size_t mlen)
{
	if (!r->annotate)
		return NULL;
	if (m && mlen == 7 && memcmp(m, "inlined", 7) == 0 && r->opt.inlined)
		return fold_contains(f, flen, "_[i]") ? NULL : "_[i]";
	if (r->opt.kernel && m && iskernel(m, mlen))
		return "_[k]";
	if (r->opt.jit && m && isjit(m, mlen))
		return fold_contains(f, flen, "_[j]") ? NULL : "_[j]";
	return NULL;
}

/*
 * With --srcline or --context, the frame waits for the source line that
 * may follow: f and its suffix are kept as the pending frame.
 */
static void
defer(struct perf_reader *r, const char *f, size_t flen, const char *suf,
    int pendsrc)
{
	r->pend = fold_grow(r->pend, &r->pendcap, flen + 5, 1);
	memcpy(r->pend, f, flen);
	if (suf)
		memcpy(r->pend + flen, suf, 4), flen += 4;
	r->pendlen = flen;
	r->pending = 1;
	r->pendsrc = pendsrc;
}

/*
 * Where the next "->" at or after f[i] splits a frame that perf-map-agent
 * wrote with the methods inlined into it ("A->LB->LC", its unfoldall
 * option), or n. As in the reference, wherever it is (perf may have cut
 * the name inside an argument list), except after a blank (a return
 * type: "<fn() -> i32 as FnOnce>") and in C++'s "operator->".
 */
static size_t
next_arrow(const char *f, size_t n, size_t i)
{
	const char *p;

	for (; i + 1 < n; i = p - f + 1) {
		if (!(p = memchr(f + i, '-', n - 1 - i)))
			break;
		if (p[1] == '>' && (p == f || p[-1] != ' ') &&
		    !(p - f >= 8 && memcmp(p - 8, "operator", 8) == 0))
			return p - f;
	}
	return n;
}

static void
pushouter(struct perf_reader *r, uint32_t id)
{
	r->outer = fold_grow(r->outer, &r->capouter, r->nouter + 1,
	    sizeof *r->outer);
	r->outer[r->nouter++] = id;
}

/*
 * The frame f[0..flen) split at its arrows (the first at cut) into one
 * frame per method, root first, as the reference splits it: each part
 * cleaned as a name of its own (its argument list cut, the 'L' of its
 * Java class dropped, "[unknown]" named after the dso), every part after
 * the first suffixed "_[i]" (an inlined method, whatever the options),
 * the first annotated as a whole frame would be. Empty parts are dropped
 * (the reference keeps them as empty frames). A source line, with
 * --srcline or --context, goes with the last part: the method whose code
 * the address is in. Returns 1, or -1 when a name would hold a NUL byte.
 */
static int
arrows(struct perf_reader *r, char *t, const char *f, size_t flen, size_t cut,
    const char *a, size_t alen, const char *m, size_t mlen)
{
	const char *p, *suf;
	size_t i, end, plen, k;
	int unknown = 0, last, pushed = 0;
	long len;
	uint32_t id;

	r->nouter = 0;
	for (i = 0, k = 0;; i = end + 2, k++) {
		end = k ? next_arrow(f, flen, i) : cut;
		last = end >= flen;
		p = f + i;
		plen = end - i;
		unknown = 0;	/* of this part: its source line is kept */
		if (plen == 9 && memcmp(p, "[unknown]", 9) == 0) {
			if ((len = unknown_name(r, t, a, alen, m, mlen,
			    &unknown)) < 0)
				return -1;
			p = t;
			plen = len;
		} else if (clean_name(r, t, &p, &plen, m, mlen) < 0) {
			return -1;
		}
		if (plen > 0) {
			if (k == 0)
				suf = annotation(r, p, plen, m, mlen);
			else
				suf = fold_contains(p, plen, "_[i]") ? NULL : "_[i]";
			if (last && (r->opt.srcline || r->opt.context)) {
				defer(r, p, plen, suf, r->opt.srcline ?
				    !unknown : m && isuser(m, mlen));
				break;
			}
			if (suf) {
				memmove(t, p, plen);
				memcpy(t + plen, suf, 4);
				p = t;
				plen += 4;
			}
			id = fold_intern(r->frames, p, plen);
			if (!last) {
				pushouter(r, id);
			} else {
				pushid(r, id);
				pushed = 1;
			}
		}
		if (last)
			break;
	}
	/* leaf first: the last part, then the others from the innermost */
	if (r->pending) {
		r->nafter = 0;
		for (k = r->nouter; k-- > 0;) {
			r->after = fold_grow(r->after, &r->capafter,
			    r->nafter + 1, sizeof *r->after);
			r->after[r->nafter++] = r->outer[k];
		}
		return 1;
	}
	for (k = r->nouter; k-- > 0;) {
		pushid(r, r->outer[k]);
		pushed = 1;
	}
	r->lastpushed = pushed;
	return 1;
}

/*
 * One call chain entry: "ADDR SYMBOL+0xOFF (DSO)". s[0..n) starts at the
 * address; tried, if not NULL, is the cache entry the caller has looked
 * the line up in already, and missed (NULL when it is not cacheable).
 * Returns 1 when it was one (and is added), 0 when not, -1 when its name
 * would hold a NUL byte.
 */
static int
frame(struct perf_reader *r, const char *s, size_t n, struct centry **tried)
{
	const char *a = s, *f, *m = NULL, *suf;
	size_t alen, flen, mlen = 0, tn = n, cut;
	int unknown = 0;
	struct centry *e;
	uint32_t id;
	long len;
	char *t;

	while (tn > 0 && fold_isspace(s[tn - 1]))
		tn--;
	if (tried)
		e = *tried;
	else if (cache_hit(r, s, tn, NULL, &e))
		return 1;
	for (alen = 0; alen < n && fold_isxdigit(s[alen]); alen++)
		;
	if (alen == 0 || alen == n || !fold_isspace(s[alen]))
		return 0;
	flushpending(r);
	/*
	 * Only texts with something after the address are cached: then any
	 * line trimmed to the same text is a frame line parsed the same way.
	 */
	if (alen >= tn)
		e = NULL;
	t = scratch(r, 2 * tn + 64);
	s += alen;
	n = tn - alen;
	split_dso(s, &n, &m, &mlen);
	split_symbol(s, n, m != NULL, &f, &flen);
	if (flen > 0 && f[0] == '(' &&
	    !fold_startswith(f, flen, "(anonymous namespace)")) {
		id = FOLD_NOFRAME;	/* the reference skips these */
		goto done;
	}
	if ((cut = next_arrow(f, flen, 0)) < flen)
		return arrows(r, t, f, flen, cut, a, alen, m, mlen);
	if (flen == 9 && memcmp(f, "[unknown]", 9) == 0) {
		if ((len = unknown_name(r, t, a, alen, m, mlen, &unknown)) < 0)
			return -1;
		f = t;
		flen = len;
	} else if (clean_name(r, t, &f, &flen, m, mlen) < 0) {
		return -1;
	}
	suf = annotation(r, f, flen, m, mlen);
	if (r->opt.srcline || r->opt.context) {
		defer(r, f, flen, suf, r->opt.srcline ? !unknown :
		    m && isuser(m, mlen));
		return 1;
	}
	if (suf) {
		memmove(t, f, flen);
		memcpy(t + flen, suf, 4);
		f = t;
		flen += 4;
	}
	id = fold_intern(r->frames, f, flen);
done:
	if (e) {
		e->id = id;
		e->gen = r->gen;
		e->len = tn;
		e->java = r->java;
		memcpy(e->text, a, tn);
		if (++r->cachefills >> r->cachebits &&
		    r->cachebits < CACHE_BITS) {
			/* emptied: what it held is found again soon enough */
			cache_free(r->cache, r->cachebits);
			r->cachebits += 2;
			r->cachefills = 0;
			r->cache = cache_new(r->cachebits);
		}
	}
	if ((r->lastpushed = id != FOLD_NOFRAME))
		pushid(r, id);
	return 1;
}

/*
 * With -F +srcline, perf prints an inlined frame without its dso and
 * moves "(inlined)" to the end of the frame's source line instead:
 *
 *	            13ce hash_word+0x5e
 *	  inlinework.c:20 (inlined)
 *
 * Returns 1 when s[0..*n) ends so, cutting it off.
 */
static int
inlinedsrc(const char *s, size_t *n)
{
	size_t m = *n;

	while (m > 0 && fold_isspace(s[m - 1]))
		m--;
	if (!fold_endswith(s, m, "(inlined)"))
		return 0;
	*n = m - 9;
	return 1;
}

/* Names the frame just added, or the one pending, as an inlined one. */
static void
markinlined(struct perf_reader *r)
{
	const char *f;
	size_t len;
	char *t;

	if (!r->opt.inlined)
		return;
	if (r->pending) {
		if (!fold_contains(r->pend, r->pendlen, "_[i]")) {
			r->pend = fold_grow(r->pend, &r->pendcap, r->pendlen + 5,
			    1);
			memcpy(r->pend + r->pendlen, "_[i]", 4);
			r->pendlen += 4;
		}
		return;
	}
	if (!r->lastpushed || r->nfr == 0)
		return;
	f = fold_intern_str(r->frames, r->fr[r->nfr - 1], &len);
	if (fold_contains(f, len, "_[i]"))
		return;
	t = scratch(r, len + 4);
	memcpy(t, f, len);
	memcpy(t + len, "_[i]", 4);
	r->fr[r->nfr - 1] = fold_intern(r->frames, t, len + 4);
}

/*
 * A source line printed after a frame by `perf script -F +srcline`:
 * "  file.c:12", "  libc.so.6[27b25]", "  [kernel.kallsyms][ffff...]".
 * Bracketed parts are dropped, as the reference does.
 */
static void
srcline(struct perf_reader *r, const char *s, size_t n)
{
	size_t i, j, start;

	if (inlinedsrc(s, &n))
		markinlined(r);
	if (!r->pending || !r->pendsrc)
		return;
	start = r->pendlen;
	r->pend = fold_grow(r->pend, &r->pendcap, start + n + 2, 1);
	r->pend[start] = ':';
	for (i = 0, j = start + 1; i < n; i++) {
		const char *close;
		if (s[i] == '[' && (close = memchr(s + i, ']', n - i)) != NULL) {
			i = close - s;
			continue;
		}
		r->pend[j++] = s[i] == ';' ? ':' : s[i];
	}
	while (j > start + 1 && fold_isspace(r->pend[j - 1]))
		j--;
	i = start + 1;
	while (i < j && fold_isspace(r->pend[i]))
		i++;
	if (i < j) {
		memmove(r->pend + start + 1, r->pend + i, j - i);
		r->pendlen = start + 1 + (j - i);
	}
}

struct hdr {
	const char *comm, *pid, *tid, *ev, *rest;
	size_t commlen, pidlen, tidlen, evlen, restlen;
	struct thread *thread;	/* its entry in perf_reader.thread */
	uint64_t period;
	int hasperiod;		/* a period was printed */
	const char *bad;	/* a period that is not a count, or NULL */
	size_t badlen;
	int record;		/* PERF_RECORD_* side-band line */
};

/* "123.456789:" */
static int
istime(const char *t, size_t n)
{
	size_t i;
	int dig = 0;

	if (n < 2 || t[n - 1] != ':')
		return 0;
	for (i = 0; i < n - 1; i++) {
		if (fold_isdigit(t[i]))
			dig = 1;
		else if (t[i] != '.')
			return 0;
	}
	return dig;
}

/*
 * A sample header: "COMM PID/TID [CPU] TIME: PERIOD EVENT: ...". As in the
 * reference, COMM is the shortest prefix (two bytes at least) followed by
 * blanks, a number and optionally "/number", and blanks; so comms may hold
 * spaces ("C2 CompilerThre"). The fields after it are whatever -F chose.
 */
static int
header(struct perf_reader *r, const char *s, size_t n, struct hdr *h)
{
	struct thread *th = NULL;
	size_t k, j, p, t, te = 0, a = 0, b, prev = 0, prevlen = 0, e2;
	int found = 0;

	memset(h, 0, sizeof *h);
	/*
	 * "COMM PID ": the start of most headers. When a thread's entry has
	 * exactly that text, this header's comm, pid and tid are where they
	 * were: the search below looks no further than the blank after them.
	 */
	k = toblank(s, n < 2 ? n : 2, n);
	j = skipblank(s, k, n);
	e2 = toblank(s, j, n);
	if (e2 < n && e2 + 1 <= sizeof th->text) {
		th = &r->thread[fold_hash(s, e2 + 1) >> (64 - THREAD_BITS)];
		if (th->len == e2 + 1 && memcmp(th->text, s, th->len) == 0) {
			k = th->commlen;
			h->pid = s + th->pid;
			h->pidlen = th->pidlen;
			if (th->tidlen) {
				h->tid = s + th->tid;
				h->tidlen = th->tidlen;
			}
			te = e2;
			found = 1;
			h->thread = th;
			goto fields;
		}
	}
	for (k = 2; k < n; k++) {
		if (!fold_isspace(s[k]))
			continue;
		for (j = k; j < n && fold_isspace(s[j]); j++)
			;
		/* perf prints -1 for the pid of an exiting task */
		p = j + (j + 1 < n && s[j] == '-' && fold_isdigit(s[j + 1]));
		if (p < n && fold_isdigit(s[p])) {
			for (; p < n && fold_isdigit(s[p]); p++)
				;
			size_t pe = p;
			while (p < n && s[p] == '/')
				p++;
			t = p + (p + 1 < n && s[p] == '-' && fold_isdigit(s[p + 1]));
			for (; t < n && fold_isdigit(s[t]); t++)
				;
			te = t;
			if (te < n && fold_isspace(s[te])) {
				h->pid = s + j;
				h->pidlen = pe - j;
				if (te > p) {
					h->tid = s + p;
					h->tidlen = te - p;
				}
				found = 1;
				break;
			}
		}
		k = j;
	}
	/* -F without pid and tid: the comm ends before the time */
	for (a = 0; a < (found ? k : n); a = b) {
		while (a < n && !fold_isspace(s[a]))
			a++;
		while (a < n && fold_isspace(s[a]))
			a++;
		for (b = a; b < n && !fold_isspace(s[b]); b++)
			;
		if (a > 0 && b > a && istime(s + a, b - a)) {
			for (k = a; k > 0 && fold_isspace(s[k - 1]); k--)
				;
			h->pid = h->tid = NULL;
			h->pidlen = h->tidlen = 0;
			j = a;
			t = a;
			found = 2;
			break;
		}
	}
	if (!found || k == 0)
		return 0;
	if (found == 1 && th && te == e2) {
		th->len = te + 1;
		memcpy(th->text, s, th->len);
		th->commlen = k;
		th->pid = h->pid - s;
		th->pidlen = h->pidlen;
		th->tid = h->tid ? (size_t)(h->tid - s) : 0;
		th->tidlen = h->tidlen;
		th->pname = FOLD_NOFRAME;
		h->thread = th;
	}
fields:
	h->comm = s;
	h->commlen = k;
	/* the fields after the pid: [cpu] time: period event: rest */
	for (a = found == 2 ? a : te; a < n; a = b) {
		a = skipblank(s, a, n);
		if (a >= n)
			break;
		b = toblank(s, a, n);
		const char *tok = s + a;
		size_t tl = b - a;
		if (tl >= 3 && tok[0] == '[' && tok[tl - 1] == ']' &&
		    alldig(tok + 1, tl - 2))
			continue;
		if (istime(tok, tl))
			continue;
		/*
		 * The period, or what stands where it would: digits, or a
		 * signed or broken number ("-5", "12x"), which is reported
		 * if an event follows.
		 */
		if (fold_isdigit(tok[0]) || (tl > 1 && (tok[0] == '-' ||
		    tok[0] == '+') && fold_isdigit(tok[1]))) {
			prev = a;
			prevlen = tl;
			continue;
		}
		if (fold_startswith(tok, tl, "PERF_RECORD_")) {
			h->record = 1;
			return 1;
		}
		if (tok[tl - 1] == ':') {
			h->ev = tok;
			h->evlen = tl - 1;
			if (prevlen && prev + prevlen < a) {
				/* every value of 0 to 2^64-1, exactly */
				uint64_t v = 0;
				unsigned d;
				h->hasperiod = 1;
				for (p = prev; p < prev + prevlen; p++) {
					d = s[p] - '0';
					/* 19 digits cannot pass 2^64-1 */
					if (d > 9 || (p - prev >= 19 &&
					    v > (UINT64_MAX - d) / 10)) {
						h->bad = s + prev;
						h->badlen = prevlen;
						break;
					}
					v = v * 10 + d;
				}
				h->period = v;
			}
			while (b < n && fold_isspace(s[b]))
				b++;
			h->rest = s + b;
			h->restlen = n - b;
			break;
		}
		prevlen = 0;
		break;
	}
	return 1;
}

/* Sets up the sample a header opens. */
static int
startsample(struct perf_reader *r, const struct hdr *h)
{
	char *t;
	size_t i, n;

	if (endsample(r) < 0)
		return -1;
	r->insample = 1;
	r->hdrline = r->lineno;
	r->nsamples++;
	r->keep = event(r, h->ev ? h->ev : "", h->ev ? h->evlen : 0);
	if (!r->keep)
		return 0;
	/* a sample without a period counts 1; one of period 0, nothing */
	r->period = h->hasperiod ? h->period : 1;
	if (h->thread && h->thread->pname != FOLD_NOFRAME) {
		r->pname = h->thread->pname;
		r->java = h->thread->java;
		return 0;
	}
	r->java = fold_startswith(h->comm, h->commlen, "java");
	n = h->commlen;
	t = scratch(r, n + h->pidlen + h->tidlen + 8);
	for (i = 0; i < n; i++)
		t[i] = h->comm[i] == ' ' ? '_' :
		    h->comm[i] == ';' ? ':' : h->comm[i];
	if (r->opt.pid || r->opt.tid) {
		/* like the reference: "comm-?/TID" without a PID */
		const char *pid = h->pid, *tid = h->tid;
		size_t pl = h->pidlen, tl = h->tidlen;
		if (!tid || (tl == 1 && tid[0] == '0')) {
			tid = pid;
			tl = pl;
			pid = "?";
			pl = 1;
		}
		if (!tid)
			tid = "?", tl = 1;
		t[n++] = '-';
		memcpy(t + n, pid, pl);
		n += pl;
		if (r->opt.tid) {
			t[n++] = '/';
			memcpy(t + n, tid, tl);
			n += tl;
		}
	}
	r->pname = fold_intern(r->frames, t, n);
	if (h->thread) {
		h->thread->pname = r->pname;
		h->thread->java = r->java;
	}
	return 0;
}

/* The warning of a sample whose period is not a count. */
static int
badperiod(struct perf_reader *r, const struct hdr *h)
{
	char ex[64];
	size_t i, j;

	for (i = j = 0; i < h->badlen && j < sizeof ex - 5; i++) {
		unsigned char c = h->bad[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			ex[j++] = c;
		else
			j += snprintf(ex + j, 5, "\\x%02x", c);
	}
	ex[j] = '\0';
	if (fold_addq_flush(r->addq) < 0)
		return -1;
	return fold_warn(r->diag, r->fname, r->lineno, "period %s%s is not a "
	    "count of 0 to %llu: sample skipped", ex, i < h->badlen ? "..." :
	    "", (unsigned long long)UINT64_MAX);
}

/* A header line s[0..n) (of the whole line l[0..ln)); 0 or -1. */
static int
dohdr(struct perf_reader *r, const struct hdr *h, const char *s,
    const char *l, size_t ln)
{
	int rc;

	if (h->record)
		return 0;
	if (memchr(s, '\0', h->ev ? (size_t)(h->ev + h->evlen - s) :
	    h->commlen))
		return badline(r, l, ln, "NUL byte in line");
	if (startsample(r, h) < 0)
		return -1;
	if (h->bad && r->keep) {
		/* its frames follow: read and dropped with it */
		r->keep = 0;
		return badperiod(r, h);
	}
	/* without -g, the sample's one frame is on its header line */
	if (h->restlen && r->keep) {
		if ((rc = frame(r, h->rest, h->restlen, NULL)) < 0)
			return badline(r, l, ln, "NUL byte in line");
		if (rc > 0)
			r->flat = r->lastframe = 1;
	}
	return 0;
}

/*
 * A line as the read loop hands it over, looked at ahead of time: its
 * leading blanks skipped and, for a frame line, its text hashed and its
 * cache entry fetched, so that the entry is in cache when it is needed.
 */
struct pline {
	const char *s;
	size_t n;		/* without "\n" or "\r\n" */
	size_t ws;		/* leading blanks */
	int hashed;
	size_t tn;		/* if hashed: s[ws..ws + tn) is s[ws..n) trimmed */
	uint64_t hash;		/* and its hash */
};

static void
lookahead(struct perf_reader *r, struct pline *pl, const char *s, size_t n)
{
	size_t tn;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	pl->s = s;
	pl->n = n;
	/* perf indents frames with a tab and spaces */
	pl->ws = skipblank(s, n > 0 && s[0] == '\t', n);
	pl->hashed = 0;
	if (pl->ws == 0 || !r->cache)
		return;
	for (tn = n; tn > pl->ws && fold_isspace(s[tn - 1]); tn--)
		;
	tn -= pl->ws;
	if (tn > 0 && tn <= TEXTMAX) {
		pl->tn = tn;
		pl->hash = linehash(s + pl->ws, tn);
		pl->hashed = 1;
		__builtin_prefetch(&r->cache[pl->hash >> (64 - r->cachebits)]);
	}
}

/* One line. */
static int
line(struct perf_reader *r, const struct pline *pl)
{
	const char *s = pl->s;
	size_t n = pl->n, i = pl->ws;
	const uint64_t *hash = pl->hashed ? &pl->hash : NULL;
	struct centry *e;
	struct hdr h;
	int wasframe = r->lastframe, rc;

	r->lastframe = 0;
	if (n == 0 || s[0] == '#') {
		if (n == 0) {
			if (r->insample)
				r->blanks = 1;
			return endsample(r);
		}
		return 0;
	}
	if (i == n) {		/* blanks only: a blank line */
		if (r->insample)
			r->blanks = 1;
		return endsample(r);
	}
	if (i > 0 && r->insample && !r->flat) {
		r->multiline = 1;
		/* a line seen before: no call */
		if (!r->keep || (hash && cache_hit(r, s + i, pl->tn, hash, &e))) {
			r->lastframe = 1;
			return 0;
		}
		if ((rc = frame(r, s + i, n - i, hash ? &e : NULL)) > 0) {
			r->lastframe = 1;
			return 0;
		}
		if (rc < 0)
			return badline(r, s, n, "NUL byte in line");
		if (wasframe) {	/* a source line */
			srcline(r, s + i, n - i);
			flushpending(r);
			return 0;
		}
		return badline(r, s, n, "unrecognized line");
	}
	/* headers start at the margin, or after blanks without -g */
	if (header(r, s + i, n - i, &h))
		return dohdr(r, &h, s + i, s, n);
	if (i > 0 && wasframe && r->flat) {
		srcline(r, s + i, n - i);
		flushpending(r);
		return 0;
	}
	/* old captures print frames without indenting them */
	if (i == 0 && r->insample && !r->flat) {
		r->multiline = 1;
		if (!r->keep || (rc = frame(r, s, n, NULL)) > 0) {
			r->lastframe = 1;
			return 0;
		}
		if (rc < 0)
			return badline(r, s, n, "NUL byte in line");
	}
	return badline(r, s, n, "unrecognized line");
}

/* lines looked at (their cache entries fetched), then read, a batch */
enum { AHEAD = 8 };

static int
perf_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct perf_reader *r = rp;
	struct pline ahead[AHEAD];
	const char *buf, *p, *end, *nl;
	size_t len, k, i;
	int rc;

	r->fname = fold_in_name(in);
	r->diag = diag;
	r->origin = fold_in_origin(in);
	if (!r->part)	/* a part keeps them for join: the whole input's */
		r->blanks = 0;
	r->unterminated = 0;
	r->insample = 0;
	r->nfr = 0;
	r->pending = 0;
	r->nafter = 0;
	r->lineno = 0;
	while ((rc = fold_in_lines(in, &buf, &len)) > 0) {
		r->lineno = fold_in_lineno(in);	/* parts read between runs */
		end = buf + len;
		/* AHEAD lines looked at, then read */
		for (p = buf; p < end;) {
			for (k = 0; k < AHEAD && p < end; k++) {
				nl = memchr(p, '\n', end - p);
				if (!nl)
					nl = end;
				lookahead(r, &ahead[k], p, nl - p);
				p = nl + 1;
			}
			for (i = 0; i < k; i++) {
				r->lineno++;
				if (line(r, &ahead[i]) < 0)
					return -2;
			}
		}
		fold_in_set_lineno(in, r->lineno);
		/* the next run may be a part's, which looks at the table */
		if (fold_in_parted(in) && fold_addq_flush(r->addq) < 0)
			return -2;
	}
	if (rc < 0) {
		/* keep the samples read, not the one cut short */
		r->insample = 0;
		if (endsample(r) < 0 || fold_addq_flush(r->addq) < 0)
			return -2;
		return -1;
	}
	/* a last sample with frames but no blank line may be cut short */
	if (r->insample && r->multiline && r->blanks) {
		r->unterminated = r->hdrline;
		r->insample = 0;
	}
	return endsample(r) < 0 || fold_addq_flush(r->addq) < 0 ? -2 : 0;
}

/* A reader of one input of a fleet, waiting for its join: no cache. */
static void
perf_rested(void *rp)
{
	cache_give(rp);
}

static void
perf_input_done(void *rp, const char *name, fold_say_fn *say, void *arg)
{
	const struct perf_reader *r = rp;
	char msg[1024];

	if (!r->unterminated)
		return;
	snprintf(msg, sizeof msg, "%s:%llu: last sample has no closing blank "
	    "line (input cut short?): not counted", name,
	    (unsigned long long)r->unterminated);
	say(arg, msg);
}

/* A sample header starts a line after a blank line. */
static size_t
perf_split(const char *buf, size_t n)
{
	const char *p = memmem(buf, n, "\n\n", 2);

	return p ? (size_t)(p - buf) + 2 : n;
}

static void *
perf_part(void *rp, struct fold_stacks *st)
{
	const struct perf_reader *r = rp;
	struct perf_reader *p = perf_open(&r->opt, st);
	size_t i;

	/*
	 * A part's cache grows as the reader's does, with what it reads: a
	 * part of a few small pieces (a test's, a fuzzer's, the last of a
	 * file's) touches 32 KiB, not 2 MiB.
	 */
	p->part = 1;
	p->chosen = r->chosen;
	p->undecided = !r->opt.event && !r->chosen;
	p->ev = fold_calloc(r->nev ? r->nev : 1, sizeof *p->ev);
	p->capev = r->nev ? r->nev : 1;
	for (i = 0; i < r->nev; i++) {
		p->ev[i] = r->ev[i];
		p->ev[i].name = fold_strndup(r->ev[i].name, r->ev[i].len);
		p->ev[i].base = fold_strdup(r->ev[i].base);
		p->ev[i].samples = 0;
	}
	p->nev = r->nev;
	return p;
}

static int
evfirst(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The event whose samples r keeps, chosen as the first seen; or NULL. */
static const struct ev *
chosen(const struct perf_reader *r)
{
	size_t i;

	for (i = 0; r->chosen && i < r->nev; i++)
		if (r->ev[i].kept && r->ev[i].len > 0)
			return &r->ev[i];
	return NULL;
}

/*
 * The events a part saw first go after r's, in the order they came. A
 * reader of a whole input chose the first event it saw: r's, unless r
 * chose another.
 */
static int
perf_join(void *rp, void *const *pp, size_t n)
{
	struct perf_reader *r = rp;
	const struct perf_reader *p;
	const struct ev *kept = chosen(r), *pk;
	size_t i, j, k, from = r->nev;
	struct ev *e;

	for (k = 0; k < n; k++) {
		p = pp[k];
		if (p->needr)
			return 1;
		if (!p->part && kept && (pk = chosen(p)) &&
		    (pk->len != kept->len ||
		    memcmp(pk->name, kept->name, kept->len) != 0))
			return 1;
	}
	for (k = 0; k < n; k++) {
		p = pp[k];
		r->nsamples += p->nsamples;
		r->blanks |= p->blanks;
		for (i = 0; i < p->nev; i++) {
			for (j = 0; j < r->nev; j++)
				if (r->ev[j].len == p->ev[i].len &&
				    memcmp(r->ev[j].name, p->ev[i].name,
				    p->ev[i].len) == 0)
					break;
			if (j == r->nev) {
				r->ev = fold_grow(r->ev, &r->capev, r->nev + 1,
				    sizeof *r->ev);
				e = &r->ev[r->nev++];
				*e = p->ev[i];
				e->name = fold_strndup(p->ev[i].name,
				    p->ev[i].len);
				e->base = fold_strdup(p->ev[i].base);
				e->samples = 0;
			}
			e = &r->ev[j];
			e->samples += p->ev[i].samples;
			if (j >= from && evfirst(&p->ev[i], e) < 0) {
				e->at = p->ev[i].at;
				e->idx = p->ev[i].idx;
			}
		}
	}
	if (r->nev > from)	/* r->ev is NULL while no event was seen */
		qsort(r->ev + from, r->nev - from, sizeof *r->ev, evfirst);
	for (k = 0; k < n; k++) {
		p = pp[k];
		if (p->part)
			continue;
		r->chosen |= p->chosen;
		/* of the input read last, for input_done */
		r->unterminated = p->unterminated;
	}
	return 0;
}

/* Event names are cut in messages: a hostile one may be 64 KB long. */
#define EV(s) FOLD_CUT((s), strlen(s))

/* Appends to the message *s (of *len bytes). */
static void
addf(char **s, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*s = fold_realloc(*s, *len + n + 1);
	va_start(ap, fmt);
	vsnprintf(*s + *len, n + 1, fmt, ap);
	va_end(ap);
	*len += n;
}

static int
perf_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct perf_reader *r = rp;
	const struct perf_opt *opt = &r->opt;
	const struct perf_event *ev;
	size_t n, i, named = 0, kept = 0, len = 0;
	char *msg = NULL;
	int rc = 0;

	/* nothing more is read: the cache goes before the table's sort */
	cache_free(r->cache, r->cachebits);
	r->cache = NULL;
	/* --list-events: the listing says it all */
	if (opt->list)
		return 0;

	ev = perf_events(r, &n);
	for (i = 0; i < n; i++) {
		if (!ev[i].name[0])
			continue;
		named++;
		if (ev[i].kept)
			kept++;
	}
	if (opt->event && kept == 0 && named > 0) {
		addf(&msg, &len, "no samples of event %.*s%s; the input has",
		    EV(opt->event));
		for (i = 0; i < n; i++)
			if (ev[i].name[0])
				addf(&msg, &len, " %.*s%s", EV(ev[i].name));
		rc = -1;
	} else if (!opt->event && named >= 2) {
		for (i = 0; i < n; i++)
			if (ev[i].name[0] && ev[i].kept)
				addf(&msg, &len, "kept event %.*s%s (%llu "
				    "samples);", EV(ev[i].name),
				    (unsigned long long)ev[i].samples);
		for (i = 0; i < n; i++)
			if (ev[i].name[0] && !ev[i].kept)
				addf(&msg, &len, " dropped %.*s%s (%llu "
				    "samples);", EV(ev[i].name),
				    (unsigned long long)ev[i].samples);
		addf(&msg, &len, " choose with --event-filter");
	} else
		return 0;
	say(arg, msg);
	free(msg);
	return rc;
}

/* 1 when s[0..n) holds a blank-separated "SECONDS.USECS:" field. */
static int
has_timestamp(const char *s, size_t n)
{
	size_t i, j;

	for (i = 0; i + 8 < n; i++) {
		if (s[i] != '.' || (i > 0 && !fold_isdigit(s[i - 1])))
			continue;
		for (j = i + 1; j < n && fold_isdigit(s[j]); j++)
			;
		if (j - i == 7 && j < n && s[j] == ':' &&
		    (j + 1 == n || fold_isblank(s[j + 1])))
			return 1;
	}
	return 0;
}

/* 1 when s[0..n) has a blank-separated field of digits, or digits/digits. */
static int
has_pid(const char *s, size_t n)
{
	size_t i = 0, j, k;

	while (i < n) {
		while (i < n && fold_isblank(s[i]))
			i++;
		for (j = i; j < n && !fold_isblank(s[j]); j++)
			;
		/* by length, not strspn: s is a peeked head, not a string */
		for (k = i; k < j && (fold_isdigit(s[k]) ||
		    s[k] == '/'); k++)
			;
		if (i > 0 && j > i && k == j && fold_isdigit(s[i]))
			return 1;
		i = j;
	}
	return 0;
}

/*
 * 1 for a frame line "ADDRESS name (dso)": indented, or (in old perf
 * versions) not indented but then with its "(dso)".
 */
static int
is_frame(const char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n && fold_isblank(s[i]))
		i++;
	for (j = i; j < n && fold_isxdigit(s[j]); j++)
		;
	return j > i && j < n && s[j] == ' ' &&
	    (i > 0 || (s[n - 1] == ')' && memchr(s + j, '(', n - j)));
}

int
perf_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *end = head + n, *s;
	size_t len;
	int prev = 0;	/* the line before is a header with a pid: 1 or 2 */

	while (fold_head_line(&p, end, eof, &s, &len)) {
		if (len == 0 || s[0] == '#') {
			prev = 0;
			continue;
		}
		if (has_timestamp(s, len))
			return 2;
		if (prev && is_frame(s, len))
			return prev;
		/* a header ends in its event's ':' unless -F left it out */
		prev = 0;
		if (!fold_isblank(s[0]) && has_pid(s, len)) {
			while (len > 0 && fold_isblank(s[len - 1]))
				len--;
			prev = s[len - 1] == ':' ? 2 : 1;
		}
	}
	return 0;
}

static uint64_t
perf_records(const void *r)
{
	return perf_samples(r);
}

/* --list-events: each event and its samples, instead of the stacks. */
static int
perf_output(void *rp, struct fold_out *out)
{
	const struct perf_reader *r = rp;
	const struct perf_event *ev;
	size_t n, i;

	if (!r->opt.list)
		return 0;
	ev = perf_events(r, &n);
	for (i = 0; i < n; i++)
		fold_out_printf(out, "%s %llu\n", ev[i].name[0] ? ev[i].name :
		    "-", (unsigned long long)ev[i].samples);
	return 1;
}

/* --all is --kernel and --jit. */
static int
perf_all(void *opts, const char *value, const char *more)
{
	struct perf_opt *o = opts;

	o->kernel = o->jit = 1;
	return 0;
}

#define OFF(field) offsetof(struct perf_opt, field)

/*
 * The unit of the counts: a sample's period is nanoseconds of the clock
 * events (cpu-clock, task-clock), else one occurrence of its event
 * ("cycles", "instructions"; its modifiers dropped); samples with
 * --samples, or when the kept samples name no event or several.
 */
static const char *
perf_unit(const void *rp)
{
	const struct perf_reader *r = rp;
	const struct ev *e = NULL;
	size_t i;

	if (r->opt.samples)
		return NULL;
	for (i = 0; i < r->nev; i++)
		if (r->ev[i].kept && r->ev[i].samples) {
			if (e || r->ev[i].len == 0)
				return NULL;
			e = &r->ev[i];
		}
	if (!e)
		return NULL;
	if (strcmp(e->base, "cpu-clock") == 0 ||
	    strcmp(e->base, "task-clock") == 0)
		return "nanoseconds";
	return fold_unit_valid(e->base, strlen(e->base)) ? e->base : NULL;
}

static const struct fold_option perf_options[] = {
	{ .name = "addrs", .kind = FOLD_OPT_FLAG, .off = OFF(addrs),
	    .value = 1, .help = "name frames without a symbol by object "
	    "and address" },
	{ .name = "all", .kind = FOLD_OPT_CALL, .call = perf_all,
	    .help = "both --kernel and --jit" },
	{ .name = "context", .kind = FOLD_OPT_FLAG, .off = OFF(context),
	    .value = 1, .help = "append perf's source line to user frames" },
	{ .name = "event-filter", .arg = "EVENT", .kind = FOLD_OPT_STRING,
	    .off = OFF(event), .reject = " \t\n", .what = "an event name",
	    .help = "keep only samples of EVENT (default: the first)" },
	{ .name = "inline", .kind = FOLD_OPT_FLAG, .off = OFF(inlined),
	    .value = 1, .help = "suffix inlined frames \"_[i]\"" },
	{ .name = "jit", .kind = FOLD_OPT_FLAG, .off = OFF(jit), .value = 1,
	    .help = "suffix JIT frames \"_[j]\"" },
	{ .name = "kernel", .kind = FOLD_OPT_FLAG, .off = OFF(kernel),
	    .value = 1, .help = "suffix kernel frames \"_[k]\"" },
	{ .name = "list-events", .kind = FOLD_OPT_FLAG, .off = OFF(list),
	    .value = 1, .help = "print each event and its samples instead "
	    "of stacks" },
	{ .name = "pid", .kind = FOLD_OPT_FLAG, .off = OFF(pid), .value = 1,
	    .help = "name the root frame \"comm-PID\"" },
	{ .name = "samples", .kind = FOLD_OPT_FLAG, .off = OFF(samples),
	    .value = 1, .help = "count each sample as 1, not by its period" },
	{ .name = "srcline", .kind = FOLD_OPT_FLAG, .off = OFF(srcline),
	    .value = 1, .help = "append perf's source line to every frame" },
	{ .name = "tid", .kind = FOLD_OPT_FLAG, .off = OFF(tid), .value = 1,
	    .help = "name the root frame \"comm-PID/TID\"" },
	{ .name = NULL }
};

static const struct perf_opt perf_defaults = PERF_OPT_INIT;

const struct format_id perf_id = {
	.name = "perf",
	.tool = "stackcollapse-perf",
	.what = "perf script output",
	.input = "perf script output",
	.detect = perf_detect,
};

const struct format perf_format = {
	.id = &perf_id,
	.kind = FOLD_LINES,
	.one = "line",
	.many = "lines",
	.options = perf_options,
	.optsize = sizeof(struct perf_opt),
	.defaults = &perf_defaults,
	.open = perf_open,
	.read = perf_read,
	.unit = perf_unit,
	.input_done = perf_input_done,
	.records = perf_records,
	.finish = perf_finish,
	.output = perf_output,
	.close = perf_close,
	.split = perf_split,
	.split_default = 1,
	.part = perf_part,
	.join = perf_join,
	.whole = 1,
	.rested = perf_rested,
};
