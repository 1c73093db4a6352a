#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "libfold/unit.h"
#include "formats/jfr.h"
#include "formats/jfrbin.h"

struct jfr_type {
	uint64_t events;
	int stacks;		/* a block of this type had a stackTrace */
};

/* What was read, over every input. */
struct jfr_stats {
	uint64_t events;	/* events of the chosen type */
	uint64_t stacks;	/* of those, added to the table */
	uint64_t nostack;	/* dropped: no stack trace or an empty one */
	uint64_t zero;		/* weight 0 (not added; nothing is lost) */
	uint64_t bad;		/* dropped with a warning */
	uint64_t deepest;	/* most frames in one stack */
	uint64_t others;	/* events of other types */
};

struct jfr_reader {
	struct jfr_opt opt;
	const char *event;	/* full name, or simple name when simple */
	int simple;
	const char *weight;	/* NULL: count 1 */
	struct fold_stacks *st;
	struct fold_intern *frames;
	struct jfr_stats stats;

	/* the block being read */
	int inev, want, instack, bad, marker, haveweight, thread_sampled;
	uint64_t evline, weightval;
	long depth;
	uint32_t thread;	/* FOLD_NOFRAME: none */
	uint32_t *ids;		/* frames, leaf first */
	size_t nids, idcap;
	int lastentry;		/* the last frame (the root) is an entry point */
	char *name;		/* a frame name being put together */
	size_t namecap;
	char *scratch;
	size_t scratchcap;
	uint32_t type;		/* interned type of the current block */
	int unitkind;		/* of the weights read: 't', 'b', 'n' none */

	/* a recording being read (jfrbin.h): where its events warn */
	struct fold_in *in;
	struct fold_diag *diag;

	/* event types seen */
	struct fold_intern *types;
	struct jfr_type *tinfo;
	size_t tcap;
	char *hint;

	/* the input being read: its cut stacks, told by jfr_summary */
	uint64_t in_stacks, in_mcut, in_dcut, in_deepest;
	struct jfr_cut *cuts;
	size_t ncuts, cutcap;

	/*
	 * Reading parts of an input (format.h): the pieces of one input,
	 * whose cut stacks join gives r; where the last weight was read.
	 */
	int inpart;
	int unsure;		/* a warning named a line it did not know */
	uint64_t unitorigin;
};

/* An input some of whose stacks are cut. */
struct jfr_cut {
	char *name;
	uint64_t cut, stacks, deepest;
};

static const struct {
	const char *event, *field;
} weights[] = {
	{ "jdk.ObjectAllocationSample", "weight" },
	{ "jdk.ObjectAllocationInNewTLAB", "allocationSize" },
	{ "jdk.ObjectAllocationOutsideTLAB", "allocationSize" },
	{ "jdk.JavaMonitorEnter", "duration" },
	{ "jdk.JavaMonitorWait", "duration" },
	{ "jdk.ThreadPark", "duration" },
	{ "jdk.ThreadSleep", "duration" },
};

/*
 * The field that weighs an event type by default: "weight" for
 * jdk.ObjectAllocationSample, "allocationSize" for
 * jdk.ObjectAllocationInNewTLAB and jdk.ObjectAllocationOutsideTLAB,
 * "duration" for jdk.JavaMonitorEnter, jdk.JavaMonitorWait,
 * jdk.ThreadPark and jdk.ThreadSleep, NULL (1 per event) for the others.
 */
static const char *
jfr_event_weight(const char *event)
{
	const char *dot;
	size_t i;

	for (i = 0; i < sizeof weights / sizeof weights[0]; i++) {
		dot = strrchr(weights[i].event, '.');
		if (strcmp(event, weights[i].event) == 0 ||
		    strcmp(event, dot + 1) == 0)
			return weights[i].field;
	}
	return NULL;
}

/* Units of jfr print, in base units (nanoseconds or bytes). */
static const struct {
	const char *name;
	uint64_t factor;
	char kind;		/* 't' time, 'b' bytes */
} units[] = {
	{ "ns", 1, 't' },
	{ "us", 1000, 't' },
	{ "\xc2\xb5s", 1000, 't' },	/* µs */
	{ "ms", 1000000, 't' },
	{ "s", 1000000000, 't' },
	{ "m", 60000000000ULL, 't' },
	{ "min", 60000000000ULL, 't' },
	{ "h", 3600000000000ULL, 't' },
	{ "d", 86400000000000ULL, 't' },
	{ "byte", 1, 'b' },
	{ "bytes", 1, 'b' },
	{ "kB", 1ULL << 10, 'b' },
	{ "KB", 1ULL << 10, 'b' },
	{ "KiB", 1ULL << 10, 'b' },
	{ "MB", 1ULL << 20, 'b' },
	{ "MiB", 1ULL << 20, 'b' },
	{ "GB", 1ULL << 30, 'b' },
	{ "GiB", 1ULL << 30, 'b' },
	{ "TB", 1ULL << 40, 'b' },
	{ "TiB", 1ULL << 40, 'b' },
	{ "PB", 1ULL << 50, 'b' },
	{ "PiB", 1ULL << 50, 'b' },
	{ "EB", 1ULL << 60, 'b' },
	{ "EiB", 1ULL << 60, 'b' },
};

/*
 * One "NUMBER [UNIT]" term at s[*i..n); adds it to *v, and sets *kind to
 * its unit's kind (0 for none). Returns 0; -1 with a message; -2, without
 * one, when no number begins there.
 */
static int
term(const char *s, size_t n, size_t *i, uint64_t *v, int *kind)
{
	uint64_t ip = 0, fnum = 0, fden = 1, factor = 1, add;
	size_t p = *i, u, k;
	int fdigits = 0, found;

	if (p >= n || !fold_isdigit(s[p]))
		return -2;
	for (; p < n && fold_isdigit(s[p]); p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return fold_seterr("value out of range: %.*s", (int)n, s);
		ip = ip * 10 + (s[p] - '0');
	}
	if (p + 1 < n && (s[p] == '.' || s[p] == ',') && fold_isdigit(s[p + 1])) {
		for (p++; p < n && fold_isdigit(s[p]); p++)
			if (fdigits < 18) {
				fnum = fnum * 10 + (s[p] - '0');
				fden *= 10;
				fdigits++;
			}
	}
	while (p < n && fold_isspace(s[p]))
		p++;
	u = p;
	while (p < n && !fold_isspace(s[p]))
		p++;
	*kind = 0;
	if (u < p) {
		found = 0;
		for (k = 0; k < sizeof units / sizeof units[0]; k++)
			if (strlen(units[k].name) == p - u &&
			    memcmp(units[k].name, s + u, p - u) == 0) {
				factor = units[k].factor;
				*kind = units[k].kind;
				found = 1;
				break;
			}
		if (!found)
			return fold_seterr("unknown unit '%.*s' in value: %.*s",
			    (int)(p - u), s + u, (int)n, s);
	}
	if (ip && factor > UINT64_MAX / ip)
		return fold_seterr("value out of range: %.*s", (int)n, s);
	add = ip * factor;
	if (fnum) {
		/* the fraction is below one unit: a double is precise enough */
		double f = (double)fnum / (double)fden * (double)factor;
		/* rounded half up, as llround would (f - r is exact) */
		uint64_t r = (uint64_t)f;
		r += f - (double)r >= 0.5;
		if (r > UINT64_MAX - add)
			return fold_seterr("value out of range: %.*s", (int)n, s);
		add += r;
	}
	if (add > UINT64_MAX - *v)
		return fold_seterr("value out of range: %.*s", (int)n, s);
	*v += add;
	while (p < n && fold_isspace(s[p]))
		p++;
	*i = p;
	return 0;
}

/*
 * Parses a value as `jfr print` prints it into integer base units:
 * nanoseconds for durations ("0.000450 ms", "20.1 ms", "1.86 s",
 * "1 m 5 s", "2 h 3 m", "1 d 2 h", "0.031639532 s" from --exact), bytes
 * for sizes ("1 byte", "512 bytes", "253.9 kB", ... up to "EB", powers of
 * 1024), or a plain integer. A decimal comma is accepted (a locale's
 * printf). Rounds to the nearest unit. Returns 0, or -1 with a message
 * ("N/A", a negative value, an unknown unit, overflow).
 */
static int
jfr_value(const char *s, size_t n, uint64_t *v, int *kind)
{
	size_t i = 0;
	int terms = 0, rc;

	while (n > 0 && fold_isspace(s[n - 1]))
		n--;
	while (i < n && fold_isspace(s[i]))
		i++;
	s += i;
	n -= i;
	i = 0;
	*v = 0;
	if (n == 0)
		return fold_seterr("empty value");
	if ((n == 3 && memcmp(s, "N/A", 3) == 0) ||
	    (n == 7 && memcmp(s, "Forever", 7) == 0))
		return fold_seterr("no value: %.*s", (int)n, s);
	if (s[0] == '-')
		return fold_seterr("negative value: %.*s", (int)n, s);
	/* "1 m 5 s", "2 h 3 m": terms with units, summed */
	while (i < n) {
		if ((rc = term(s, n, &i, v, kind)) == -2)
			return fold_seterr("not a value: %.*s", (int)n, s);
		if (rc < 0)
			return -1;
		terms++;
		if (!*kind && (terms > 1 || i < n))
			return fold_seterr("not a value: %.*s", (int)n, s);
	}
	return 0;
}

static void *
jfr_open(const void *optp, struct fold_stacks *st)
{
	const struct jfr_opt *opt = optp;
	struct jfr_reader *r;

	if (opt->weight && !*opt->weight)
		return fold_seterr("empty weight field name"), NULL;
	if (opt->event && !*opt->event)
		return fold_seterr("empty event name"), NULL;
	r = fold_calloc(1, sizeof *r);
	r->opt = *opt;
	r->event = opt->event ? opt->event : "jdk.ExecutionSample";
	r->simple = strchr(r->event, '.') == NULL;
	if (opt->weight)
		r->weight = strcmp(opt->weight, "count") == 0 ? NULL :
		    opt->weight;
	else
		r->weight = jfr_event_weight(r->event);
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->types = fold_intern_new();
	r->thread = FOLD_NOFRAME;
	return r;
}

static void
jfr_close(void *rp)
{
	struct jfr_reader *r = rp;
	size_t i;

	if (!r)
		return;
	fold_intern_free(r->types);
	for (i = 0; i < r->ncuts; i++)
		free(r->cuts[i].name);
	free(r->cuts);
	free(r->hint);
	free(r->tinfo);
	free(r->ids);
	free(r->name);
	free(r->scratch);
	free(r);
}

/* Totals over every input read so far. */
static const struct jfr_stats *
jfr_reader_stats(const struct jfr_reader *r)
{
	return &r->stats;
}

static int
matches(const struct jfr_reader *r, const char *name, size_t n)
{
	size_t el = strlen(r->event);
	const char *dot;

	if (!r->simple)
		return n == el && memcmp(name, r->event, n) == 0;
	dot = memrchr(name, '.', n);
	if (dot) {
		n -= dot + 1 - name;
		name = dot + 1;
	}
	return n == el && memcmp(name, r->event, n) == 0;
}

/* "jdk.Name {" at column 0: sets the name. */
static int
header(const char *line, size_t len, size_t *namelen)
{
	size_t i;

	if (len < 3 || line[len - 1] != '{' || line[len - 2] != ' ')
		return 0;
	for (i = 0; i < len - 2; i++) {
		char c = line[i];
		if (!(fold_isident(c) || c == '.' || c == '$'))
			return 0;
	}
	*namelen = len - 2;
	return 1;
}

/* Event types with stacks, most frequent first, then by name. */
static int
before(const struct jfr_reader *r, uint32_t x, uint32_t y)
{
	if (r->tinfo[x].events != r->tinfo[y].events)
		return r->tinfo[x].events > r->tinfo[y].events;
	return strcmp(fold_intern_str(r->types, x, NULL),
	    fold_intern_str(r->types, y, NULL)) < 0;
}

/*
 * The event types seen that carry stack traces, most frequent first (then
 * in byte order of name), as "jdk.ObjectAllocationSample (650),
 * jdk.ThreadPark (64)"; past max of them, " and N more". Owned by r,
 * valid until the next call; "" when none.
 */
static const char *
jfr_other_events(struct jfr_reader *r, size_t max)
{
	size_t n = fold_intern_count(r->types), i, k = 0, len = 0, cap = 64;
	size_t nl, j;
	uint32_t *ids, id;
	const char *name;

	ids = fold_reallocarray(NULL, n ? n : 1, sizeof *ids);
	/* few types: an insertion sort */
	for (i = 0; i < n; i++) {
		if (!r->tinfo[i].stacks)
			continue;
		id = i;
		for (j = k++; j > 0 && before(r, id, ids[j - 1]); j--)
			ids[j] = ids[j - 1];
		ids[j] = id;
	}
	free(r->hint);
	r->hint = fold_malloc(cap);
	r->hint[0] = 0;
	for (i = 0; i < k && i < max; i++) {
		name = fold_intern_str(r->types, ids[i], &nl);
		r->hint = fold_grow(r->hint, &cap, len + nl + 32, 1);
		len += snprintf(r->hint + len, cap - len, "%s%.*s%s (%llu)",
		    i ? ", " : "", FOLD_CUT(name, nl),
		    (unsigned long long)r->tinfo[ids[i]].events);
	}
	if (i < k) {
		r->hint = fold_grow(r->hint, &cap, len + 64, 1);
		snprintf(r->hint + len, cap - len, " and %zu more", k - i);
	}
	free(ids);
	return r->hint;
}

/* The type named name[0..n): its id in r->types, its tinfo there. */
static uint32_t
type(struct jfr_reader *r, const char *name, size_t n)
{
	uint32_t t = fold_intern(r->types, name, n);

	if (t >= r->tcap) {
		size_t old = r->tcap;
		r->tinfo = fold_grow(r->tinfo, &r->tcap, (size_t)t + 1,
		    sizeof *r->tinfo);
		memset(r->tinfo + old, 0, (r->tcap - old) * sizeof *r->tinfo);
	}
	return t;
}

static void
begin(struct jfr_reader *r, const char *name, size_t n, uint64_t line)
{
	uint32_t t = type(r, name, n);

	r->tinfo[t].events++;
	r->type = t;
	r->inev = 1;
	r->want = matches(r, name, n);
	r->evline = line;
	r->depth = 1;
	r->instack = r->bad = r->marker = r->haveweight = 0;
	r->thread_sampled = 0;
	r->thread = FOLD_NOFRAME;
	r->nids = 0;
	r->lastentry = 0;
	r->weightval = 0;
	if (!r->want)
		r->stats.others++;
}

/* Names of thread entry points: a stack reaching one is complete. */
static int
entrypoint(const char *s, size_t n)
{
	static const char *const roots[] = {
		"java.lang.Thread.run(", "java.lang.Thread.runWith(",
		"java.lang.VirtualThread.run(",
		"jdk.internal.misc.InnocuousThread.run(",
		"java.util.concurrent.ForkJoinWorkerThread.run(",
		"java.lang.ref.Reference$ReferenceHandler.run(",
		"java.lang.ref.Finalizer$FinalizerThread.run(",
	};
	size_t i, k;

	for (i = 0; i < sizeof roots / sizeof roots[0]; i++) {
		k = strlen(roots[i]);
		if (n >= k && memcmp(s, roots[i], k) == 0)
			return 1;
	}
	for (i = 0; i + 6 <= n; i++)
		if (memcmp(s + i, ".main(", 6) == 0)
			return 1;
	return 0;
}

static int
warn(struct jfr_reader *r, struct fold_diag *diag, struct fold_in *in,
    uint64_t line, const char *msg)
{
	if (fold_warn(diag, fold_in_name(in), line, "%s", msg) < 0)
		return -2;
	return 0;
}

/*
 * Warns of the event begun at r->evline, whose line msg names. A part
 * knows only lines within its piece: it is unsure, and r reads the
 * middle of the input itself (jfr_join).
 */
static int
evwarn(struct jfr_reader *r, struct fold_diag *diag, struct fold_in *in,
    const char *msg)
{
	r->unsure |= r->inpart;
	return warn(r, diag, in, fold_in_lineno(in), msg);
}

/* Ends the current block; adds its stack when it is wanted and whole. */
static int
finish(struct jfr_reader *r, struct fold_in *in, struct fold_diag *diag)
{
	struct fold_count c;
	uint32_t *ids;
	size_t i, n;
	char msg[256];

	r->inev = 0;
	if (!r->want)
		return 0;
	r->stats.events++;
	if (r->bad) {
		r->stats.bad++;
		return 0;
	}
	if (r->nids == 0) {
		r->stats.nostack++;
		return 0;
	}
	if (r->weight && !r->haveweight) {
		if (strcmp(r->weight, "duration") == 0) {
			/* jfr print leaves out durations of zero */
			r->stats.zero++;
			return 0;
		}
		snprintf(msg, sizeof msg, "%s event has no field '%s': dropped",
		    fold_intern_str(r->types, r->type, NULL), r->weight);
		r->stats.bad++;
		return warn(r, diag, in, r->evline, msg);
	}
	if (r->weight && r->weightval == 0) {
		r->stats.zero++;
		return 0;
	}
	if (r->nids > r->stats.deepest)
		r->stats.deepest = r->nids;
	if (r->nids > r->in_deepest)
		r->in_deepest = r->nids;
	/* a stack reaching a thread's entry point is whole, "..." or not */
	if (r->marker && !r->lastentry)
		r->in_mcut++;
	else if (r->nids == JFR_PRINT_DEPTH && !r->lastentry)
		r->in_dcut++;
	r->in_stacks++;
	n = r->nids + 1;
	r->ids = fold_grow(r->ids, &r->idcap, 2 * n, sizeof *r->ids);
	ids = r->ids + n;
	n = 0;
	if (r->opt.threads && r->thread != FOLD_NOFRAME)
		ids[n++] = r->thread;
	for (i = r->nids; i > 0; i--)
		ids[n++] = r->ids[i - 1];
	c = fold_count_u64(r->weight ? r->weightval : 1);
	if (fold_stacks_add(r->st, ids, n, &c) < 0)
		return fold_seterr_at(fold_in_name(in), r->evline, "%s",
		    fold_err());
	r->stats.stacks++;
	return 0;
}

/* Interns s[0..n) with ';' and control bytes made '_'. */
static uint32_t
intern_clean(struct jfr_reader *r, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == ';' || (unsigned char)s[i] < ' ')
			break;
	if (i == n)
		return fold_intern(r->frames, s, n);
	r->scratch = fold_grow(r->scratch, &r->scratchcap, n, 1);
	for (i = 0; i < n; i++)
		r->scratch[i] = s[i] == ';' || (unsigned char)s[i] < ' ' ?
		    '_' : s[i];
	return fold_intern(r->frames, r->scratch, n);
}

/* A frame line: "pkg.Class.method(Type, Type) line: 12". */
static void
frame(struct jfr_reader *r, const char *t, size_t n)
{
	size_t m = n, lstart = 0, llen = 0, i, keep;
	const char *open;

	/* " line: N" at the end */
	for (i = n; i > 0 && fold_isdigit(t[i - 1]); i--)
		;
	if (i < n && i >= 7 && memcmp(t + i - 7, " line: ", 7) == 0) {
		lstart = i;
		llen = n - i;
		m = i - 7;
	}
	r->lastentry = entrypoint(t, m);
	keep = m;
	if (!r->opt.signatures && m > 0 && t[m - 1] == ')') {
		open = memrchr(t, '(', m);
		if (open && open > t)
			keep = open - t;
	}
	if (r->opt.lines && llen) {
		r->name = fold_grow(r->name, &r->namecap, keep + 1 + llen, 1);
		memcpy(r->name, t, keep);
		r->name[keep] = ':';
		memcpy(r->name + keep + 1, t + lstart, llen);
		t = r->name;
		keep += 1 + llen;
	}
	r->ids = fold_grow(r->ids, &r->idcap, r->nids + 1, sizeof *r->ids);
	r->ids[r->nids++] = intern_clean(r, t, keep);
}

/* The name in `"main" (javaThreadId = 1)`, or the whole value. */
static uint32_t
threadname(struct jfr_reader *r, const char *v, size_t n)
{
	const char *q1, *q2;

	if (n >= 2 && v[0] == '"') {
		q1 = v + 1;
		q2 = memrchr(v, '"', n);
		if (q2 > q1)
			return intern_clean(r, q1, q2 - q1);
	}
	return intern_clean(r, v, n);
}

static int
closer(const char *t, size_t n)
{
	return (n == 1 || (n == 2 && t[1] == ',')) && (t[0] == '}' ||
	    t[0] == ']');
}

/* A line inside a wanted block (indented, t trimmed). */
static int
field(struct jfr_reader *r, struct fold_in *in, struct fold_diag *diag,
    const char *t, size_t n)
{
	const char *eq;
	size_t nl, vl;
	uint64_t v;
	int kind = 0;
	char msg[300];

	if (r->instack) {
		if (n == 1 && t[0] == ']') {
			r->instack = 0;
			r->depth--;
		} else if (n == 3 && memcmp(t, "...", 3) == 0)
			r->marker = 1;
		else if (n > 0)
			frame(r, t, n);
		return 0;
	}
	if (n > 0 && (t[n - 1] == '{' || t[n - 1] == '[')) {
		if (r->depth == 1 && n == 14 &&
		    memcmp(t, "stackTrace = [", 14) == 0) {
			r->instack = 1;
			r->nids = 0;
		}
		r->depth++;
		return 0;
	}
	if (closer(t, n)) {
		if (--r->depth < 1) {
			r->bad = 1;
			r->depth = 1;
			snprintf(msg, sizeof msg, "unbalanced '%c' in %s event "
			    "from line %llu: dropped", t[0],
			    fold_intern_str(r->types, r->type, NULL),
			    (unsigned long long)r->evline);
			return evwarn(r, diag, in, msg);
		}
		return 0;
	}
	if (r->depth != 1 || !(eq = memmem(t, n, " = ", 3)))
		return 0;
	nl = eq - t;
	eq += 3;
	vl = t + n - eq;
	if (nl == 13 && memcmp(t, "sampledThread", 13) == 0) {
		r->thread = threadname(r, eq, vl);
		r->thread_sampled = 1;
	} else if (nl == 11 && memcmp(t, "eventThread", 11) == 0) {
		if (!r->thread_sampled)
			r->thread = threadname(r, eq, vl);
	} else if (r->weight && nl == strlen(r->weight) &&
	    memcmp(t, r->weight, nl) == 0) {
		if (jfr_value(eq, vl, &v, &kind) < 0) {
			r->bad = 1;
			snprintf(msg, sizeof msg, "%s: %s event dropped", fold_err(),
			    fold_intern_str(r->types, r->type, NULL));
			return warn(r, diag, in, fold_in_lineno(in), msg);
		}
		r->weightval = v;
		r->haveweight = 1;
		r->unitkind = kind ? kind : 'n';
		r->unitorigin = fold_in_origin(in);
	}
	return 0;
}

static int read_input(struct jfr_reader *, struct fold_in *,
    struct fold_diag *);
static void end_input(struct jfr_reader *, struct fold_in *);

/*
 * A recording's events, given by jfrbin.c as jfr print would print them,
 * go through the text's own steps: begin, the fields, finish.
 */
static int
bin_begin(void *arg, const char *name, size_t n, int stacks)
{
	struct jfr_reader *r = arg;

	begin(r, name, n, 0);
	if (stacks)
		r->tinfo[r->type].stacks = 1;
	return r->want;
}

static void
bin_thread(void *arg, const char *name, size_t n)
{
	struct jfr_reader *r = arg;

	r->thread = intern_clean(r, name, n);
}

static void
bin_weight(void *arg, uint64_t v, int kind)
{
	struct jfr_reader *r = arg;

	r->weightval = v;
	r->haveweight = 1;
	r->unitkind = kind;
}

static void
bin_frame(void *arg, const char *text, size_t n)
{
	frame(arg, text, n);
}

static void
bin_truncated(void *arg)
{
	((struct jfr_reader *)arg)->marker = 1;
}

static int
bin_end(void *arg)
{
	struct jfr_reader *r = arg;

	return finish(r, r->in, r->diag);
}

static int
jfr_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	static const struct jfrbin_cb cb0 = { NULL, bin_begin, bin_thread,
	    bin_weight, bin_frame, bin_truncated, bin_end };
	struct jfrbin_cb cb = cb0;
	struct jfr_reader *r = rp;
	const char *head;
	size_t n;
	int rc;

	r->inev = 0;
	if (r->inpart)	/* a piece of a text input (jfr_split) */
		return read_input(r, in, diag);
	r->in_stacks = r->in_mcut = r->in_dcut = r->in_deepest = 0;
	if (fold_in_peek(in, 4, &head, &n) < 0)
		return -1;
	if (jfrbin_detect(head, n)) {
		cb.arg = r;
		r->in = in;
		r->diag = diag;
		rc = jfrbin_read(in, r->weight, &cb);
	} else
		rc = read_input(r, in, diag);
	end_input(r, in);
	return rc;
}

/*
 * Keeps the count of the input's cut stacks for jfr_summary: those
 * ending in "...", and those exactly JFR_PRINT_DEPTH deep when no stack
 * of the input is deeper (a `jfr print` that marks no cut).
 */
static void
end_input(struct jfr_reader *r, struct fold_in *in)
{
	uint64_t n = r->in_mcut;
	struct jfr_cut *c;

	if (r->in_deepest <= JFR_PRINT_DEPTH)
		n += r->in_dcut;
	if (n == 0)
		return;
	r->cuts = fold_grow(r->cuts, &r->cutcap, r->ncuts + 1, sizeof *r->cuts);
	c = &r->cuts[r->ncuts++];
	c->name = fold_strdup(fold_in_name(in));
	c->cut = n;
	c->stacks = r->in_stacks;
	c->deepest = r->in_deepest;
}

static int
read_input(struct jfr_reader *r, struct fold_in *in, struct fold_diag *diag)
{
	const char *line, *t;
	size_t len, n, nl;
	int rc, first = 1;
	char msg[300];

	while ((rc = fold_in_line(in, &line, &len)) > 0) {
		if (len == 0)
			continue;
		if (first) {
			first = 0;
			if (line[0] == '{' || line[0] == '<')
				return fold_seterr("%s: this is jfr print %s "
				    "output; give the plain text of jfr print",
				    fold_in_name(in), line[0] == '{' ? "--json" :
				    "--xml"), -2;
		}
		if (!fold_isblank(line[0])) {
			if (line[0] == '}' && len == 1) {
				if (r->inev) {
					if (r->want && r->depth != 1 && !r->bad) {
						r->bad = 1;
						snprintf(msg, sizeof msg,
						    "unbalanced braces in %s "
						    "event from line %llu: "
						    "dropped",
						    fold_intern_str(r->types,
						    r->type, NULL),
						    (unsigned long long)r->evline);
						if (evwarn(r, diag, in, msg) < 0)
							return -2;
					}
					if (finish(r, in, diag) < 0)
						return -2;
				} else if (warn(r, diag, in, fold_in_lineno(in),
				    "'}' outside an event") < 0)
					return -2;
				continue;
			}
			if (header(line, len, &nl)) {
				if (r->inev) {
					if (r->want) {
						r->bad = 1;
						snprintf(msg, sizeof msg,
						    "%s event from line %llu "
						    "has no closing brace: "
						    "dropped",
						    fold_intern_str(r->types,
						    r->type, NULL),
						    (unsigned long long)r->evline);
						if (evwarn(r, diag, in, msg) < 0)
							return -2;
					}
					if (finish(r, in, diag) < 0)
						return -2;
				}
				begin(r, line, nl, fold_in_lineno(in));
				continue;
			}
			/* inside a block: a string value's later lines */
			if (!r->inev && warn(r, diag, in, fold_in_lineno(in),
			    "not jfr print output: line skipped") < 0)
				return -2;
			continue;
		}
		if (!r->inev) {
			for (t = line; t < line + len && fold_isspace(*t); t++)
				;
			if (t < line + len && warn(r, diag, in,
			    fold_in_lineno(in), "line outside an event: "
			    "skipped") < 0)
				return -2;
			continue;
		}
		if (!r->want) {
			if (len >= 16 && line[2] == 's' &&
			    memcmp(line, "  stackTrace = [", 16) == 0)
				r->tinfo[r->type].stacks = 1;
			continue;
		}
		for (t = line, n = len; n > 0 && fold_isspace(*t); t++, n--)
			;
		while (n > 0 && fold_isspace(t[n - 1]))
			n--;
		if (r->depth == 1 && n == 14 && memcmp(t, "stackTrace = [",
		    14) == 0)
			r->tinfo[r->type].stacks = 1;
		if (field(r, in, diag, t, n) < 0)
			return -2;
	}
	if (rc < 0)
		return -1;
	if (r->inev) {
		if (r->want) {
			r->bad = 1;
			snprintf(msg, sizeof msg, "%s event from line %llu has "
			    "no closing brace (input cut short?): dropped",
			    fold_intern_str(r->types, r->type, NULL),
			    (unsigned long long)r->evline);
			if (evwarn(r, diag, in, msg) < 0)
				return -2;
		}
		if (finish(r, in, diag) < 0)
			return -2;
	}
	return 0;
}

static int
jfr_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct jfr_reader *r = rp;
	const struct jfr_opt *opt = &r->opt;
	const struct jfr_stats *s = &r->stats;
	const char *ev = opt->event ? opt->event : "jdk.ExecutionSample";
	char msg[1024];
	size_t i;

	if (s->events == 0 && ok) {
		const char *other = jfr_other_events(r, JFR_EVENTS_SHOWN);
		size_t cap = strlen(other) + strlen(ev) + 64;
		char *m = fold_malloc(cap);

		if (*other)
			snprintf(m, cap, "no %s events; the input has %s "
			    "(choose with --event)", ev, other);
		else
			snprintf(m, cap, "no %s events in the input", ev);
		say(arg, m);
		free(m);
	}
	if (s->nostack) {
		snprintf(msg, sizeof msg, "%llu %s events without a stack trace "
		    "dropped", (unsigned long long)s->nostack, ev);
		say(arg, msg);
	}
	for (i = 0; i < r->ncuts; i++) {
		const struct jfr_cut *c = &r->cuts[i];

		/* no deeper stack: printed at jfr print's default depth */
		if (c->deepest <= JFR_PRINT_DEPTH)
			snprintf(msg, sizeof msg, "%s: %llu of %llu stacks are "
			    "cut (jfr print keeps %d frames by default): print "
			    "with jfr print --stack-depth 2048", c->name,
			    (unsigned long long)c->cut,
			    (unsigned long long)c->stacks, JFR_PRINT_DEPTH);
		else
			snprintf(msg, sizeof msg, "%s: %llu of %llu stacks are "
			    "cut (by jfr print --stack-depth, or when recorded: "
			    "raise the JVM's -XX:FlightRecorderOptions="
			    "stackdepth=N)", c->name, (unsigned long long)c->cut,
			    (unsigned long long)c->stacks);
		say(arg, msg);
	}
	return 0;
}

/*
 * FOLD_DETECT_SURE (2) when head[0..n) looks like `jfr print` text: an
 * event line "jdk.Name {" followed by an indented "field = value"; else 0.
 */
static int
jfr_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *end = head + n, *s;
	size_t len, i;
	int open = 0;

	/* jfr print --json and --xml: the reader says to print text */
	for (i = 0; i < n && (fold_isspace(head[i]) ||
	    head[i] == '\n'); i++)
		;
	if (i < n && (head[i] == '{' || head[i] == '<') &&
	    memmem(head, n, "recording", 9) && memmem(head, n, "events", 6))
		return 2;
	while (fold_head_line(&p, end, eof, &s, &len)) {
		if (open) {
			/* "  startTime = 13:26:00.239" */
			for (i = 0; i < len && s[i] == ' '; i++)
				;
			if (i >= 2 && i < len && memchr(s + i, '=', len - i) &&
			    (fold_isalpha(s[i]) || s[i] == '_'))
				return 2;
			open = 0;
		}
		if (len > 2 && memcmp(s + len - 2, " {", 2) == 0 &&
		    fold_isalpha(s[0])) {
			for (i = 0; i < len - 2 && (fold_isident(s[i]) ||
			    s[i] == '.' || s[i] == '$'); i++)
				;
			open = i == len - 2 && memchr(s, '.', len);
		}
	}
	return 0;
}

/* a recording (jfrbin.h) */
static int
jfr_binary(const char *head, size_t n)
{
	return jfrbin_detect(head, n);
}

/* events of other types too: the summary names them */
static uint64_t
jfr_records(const void *r)
{
	const struct jfr_stats *s = jfr_reader_stats(r);

	return s->events + s->others;
}

#define OFF(field) offsetof(struct jfr_opt, field)

/*
 * The unit of the weights: nanoseconds for durations, bytes for sizes, the
 * field's name for plain numbers; samples when events count 1.
 */
static const char *
jfr_unit(const void *rp)
{
	const struct jfr_reader *r = rp;

	if (!r->weight)
		return NULL;
	switch (r->unitkind) {
	case 't':
		return "nanoseconds";
	case 'b':
		return "bytes";
	case 'n':
		return fold_unit_valid(r->weight, strlen(r->weight)) ?
		    r->weight : NULL;
	}
	return NULL;
}

static const struct fold_option jfr_options[] = {
	{ .name = "event", .arg = "NAME", .kind = FOLD_OPT_STRING,
	    .off = OFF(event), .reject = " \t\n{}", .what = "an event name",
	    .help = "read events of type NAME (jdk.ExecutionSample)" },
	{ .name = "lines", .kind = FOLD_OPT_FLAG, .off = OFF(lines),
	    .value = 1,
	    .help = "append \":LINE\" where a line is known" },
	{ .name = "signatures", .kind = FOLD_OPT_FLAG, .off = OFF(signatures),
	    .value = 1,
	    .help = "keep the parameter types of each method" },
	{ .name = "threads", .kind = FOLD_OPT_FLAG, .off = OFF(threads),
	    .value = 1,
	    .help = "put the thread name at the root" },
	{ .name = "weight", .arg = "FIELD", .kind = FOLD_OPT_STRING,
	    .off = OFF(weight), .reject = " \t\n=", .what = "a field name",
	    .help = "weigh each event by FIELD (\"count\": 1 each)" },
	{ .name = NULL }
};

#undef OFF

static const struct jfr_opt jfr_defaults = JFR_OPT_INIT;

/*
 * A part may begin after a line "}": the event before has ended (or the
 * brace was outside any), whatever the line after is.
 */
static size_t
jfr_split(const char *buf, size_t n)
{
	const char *q = memmem(buf, n, "\n}\n", 3);

	return q ? (size_t)(q + 3 - buf) : n;
}

static void *
jfr_part(void *rp, struct fold_stacks *st)
{
	const struct jfr_reader *r = rp;
	struct jfr_reader *p = jfr_open(&r->opt, st);

	p->inpart = 1;
	return p;
}

static int
jfr_join(void *rp, void *const *pp, size_t n)
{
	struct jfr_reader *r = rp;
	struct jfr_stats *s = &r->stats;
	const struct jfr_reader *unit = NULL;
	size_t k, i, nl;
	uint32_t t;

	for (k = 0; k < n; k++)
		if (((const struct jfr_reader *)pp[k])->unsure)
			return 1;
	for (k = 0; k < n; k++) {
		const struct jfr_reader *p = pp[k];
		const struct jfr_stats *ps = &p->stats;

		s->events += ps->events;
		s->stacks += ps->stacks;
		s->nostack += ps->nostack;
		s->zero += ps->zero;
		s->bad += ps->bad;
		s->others += ps->others;
		if (ps->deepest > s->deepest)
			s->deepest = ps->deepest;
		r->in_stacks += p->in_stacks;
		r->in_mcut += p->in_mcut;
		r->in_dcut += p->in_dcut;
		if (p->in_deepest > r->in_deepest)
			r->in_deepest = p->in_deepest;
		/* a reader of a whole input kept its cut stacks itself */
		for (i = 0; i < p->ncuts; i++) {
			r->cuts = fold_grow(r->cuts, &r->cutcap, r->ncuts + 1,
			    sizeof *r->cuts);
			r->cuts[r->ncuts] = p->cuts[i];
			r->cuts[r->ncuts++].name = fold_strdup(p->cuts[i].name);
		}
		for (i = 0; i < fold_intern_count(p->types); i++) {
			const char *name = fold_intern_str(p->types, i, &nl);

			t = type(r, name, nl);
			r->tinfo[t].events += p->tinfo[i].events;
			r->tinfo[t].stacks |= p->tinfo[i].stacks;
		}
		/* the unit is that of the last weight read */
		if (p->unitkind && (!unit || p->unitorigin > unit->unitorigin))
			unit = p;
	}
	if (unit)
		r->unitkind = unit->unitkind;
	return 0;
}

const struct format_id jfr_id = {
	.name = "jfr",
	.tool = "stackcollapse-jfr",
	.what = "jfr print text (Java Flight Recorder)",
	.input = "jfr print output",
	.detect = jfr_detect,
	.binary = jfr_binary,
};

const struct format jfr_format = {
	.id = &jfr_id,
	.kind = FOLD_LINES,
	.one = "event or line",
	.many = "events or lines",
	.options = jfr_options,
	.optsize = sizeof(struct jfr_opt),
	.defaults = &jfr_defaults,
	.open = jfr_open,
	.read = jfr_read,
	.records = jfr_records,
	.unit = jfr_unit,
	.finish = jfr_finish,
	.close = jfr_close,
	.split = jfr_split,
	.split_default = 1,
	.part = jfr_part,
	.join = jfr_join,
	.whole = 1,
};
