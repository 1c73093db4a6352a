#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/dtrace.h"
#include "formats/rustname.h"

/*
 * Frame lines repeat: each distinct one is cleaned once and remembered
 * by its text (the cache is dropped and started again when it holds
 * RAW_MAX lines, which bounds its memory on inputs of unique lines).
 */
#define RAW_MAX 65536

/* The frames a line cleans to: parts[off .. off+n), leaf first. */
struct rawinfo {
	uint32_t off, n;
};

struct dtrace_reader {
	struct dtrace_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;

	struct fold_intern *raw;
	struct rawinfo *ri;
	size_t nri, ricap;
	uint32_t *parts;
	size_t nparts, partcap;

	uint32_t *stack;	/* the entry being read, leaf first */
	size_t depth, stackcap;
	uint32_t *ids;		/* the same, root first */
	size_t idcap;
	char *buf, *part;	/* scratch: a cleaned line, one frame */
	size_t bufcap, partbufcap;

	uint64_t lineno, start;
	int inhead;
	int inpart;		/* reads parts of an input (format.h) */

	uint64_t stacks;	/* entries added */
	uint64_t empty;		/* counts without frames, dropped */
	struct fold_count emptytotal;
};

static void *
dtrace_open(const void *optp, struct fold_stacks *st)
{
	const struct dtrace_opt *opt = optp;
	struct dtrace_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->raw = fold_intern_new();
	return r;
}

static void
dtrace_close(void *rp)
{
	struct dtrace_reader *r = rp;
	if (!r)
		return;
	fold_intern_free(r->raw);
	free(r->ri);
	free(r->parts);
	free(r->stack);
	free(r->ids);
	free(r->buf);
	free(r->part);
	free(r);
}

/* Adds one frame (of a line's inlined frames, the index-th) to parts. */
static void
addpart(struct dtrace_reader *r, const char *s, size_t n, int inl,
    size_t index)
{
	size_t i, o = 0;
	char *b;

	if (inl)	/* a JVM type signature's "L" */
		while (n > 0 && *s == 'L')
			s++, n--;
	b = r->part = fold_grow(r->part, &r->partbufcap, n + 8, 1);
	for (i = 0; i < n; i++)
		b[o++] = s[i] == ';' ? ':' : s[i];
	if (index > 0) {
		memcpy(b + o, "_[i]", 4);
		o += 4;
	}
	if (o == 0)
		b[o++] = '-';
	r->parts = fold_grow(r->parts, &r->partcap, r->nparts + 1,
	    sizeof *r->parts);
	r->parts[r->nparts++] = fold_intern(r->frames, b, o);
}

/*
 * Cleans the frame line s[0..n) (trimmed, not empty) into parts, leaf
 * first.
 */
static void
clean(struct dtrace_reader *r, const char *s, size_t n)
{
	const char *plus = NULL, *bt, *p, *q;
	size_t tn, i, k, fn, on;
	int inl = 0, cpp = 0;
	char *t;

	for (i = 0; i < n; i++) {
		if (s[i] == '+')
			plus = s + i;
		else if (i > 0 && s[i] == '>' && s[i - 1] == '-')
			inl = 1;
		else if (i > 0 && s[i] == ':' && s[i - 1] == ':')
			cpp = 1;
	}
	tn = !r->opt.includeoffset && plus ? (size_t)(plus - s) : n;
	/* C++: from the first "::", cut at the last '(' or '<' */
	if (cpp && (p = memmem(s, tn, "::", 2)) != NULL) {
		for (q = s + tn; q > p + 2; q--)
			if (q[-1] == '(' || q[-1] == '<')
				break;
		if (q > p + 2)
			tn = q - 1 - s;
	}
	r->buf = fold_grow(r->buf, &r->bufcap, 2 * n + 8, 1);
	t = r->buf;
	memcpy(t, s, tn);
	/* a Rust name after the module's '`' */
	if (tn > 0 && (bt = memchr(t, '`', tn)) != NULL) {
		size_t m = bt + 1 - t;
		const char *f = bt + 1;
		char *out = t + n + 2;

		fn = tn - m;
		on = 0;
		if (r->opt.includeoffset &&
		    (p = memrchr(f, '+', fn)) != NULL) {
			on = f + fn - p;	/* "+0x1c" */
			fn = p - f;
		}
		while (fn > 0 && fold_isspace(f[fn - 1]))
			fn--;
		k = rustname_fix(f, fn, out);
		if (k != (size_t)-1) {
			memmove(out + k, f + (tn - m) - on, on);
			memcpy(t + m, out, k + on);
			tn = m + k + on;
		}
	}
	while (tn > 0 && fold_isspace(t[tn - 1]))
		tn--;
	if (tn == 0) {
		t[0] = '-';
		tn = 1;
	}
	if (!inl) {
		addpart(r, t, tn, 0, 0);
		return;
	}
	/* "a->b->c": root-most first in the text, pushed leaf first */
	k = 1;
	for (i = 0; i + 1 < tn; i++)
		if (t[i] == '-' && t[i + 1] == '>')
			k++, i++;
	for (i = tn; k > 0; k--) {
		size_t e = i;
		while (i >= 2 && !(t[i - 2] == '-' && t[i - 1] == '>'))
			i--;
		if (i < 2)
			i = 0;
		/* t[i .. e) is part k-1 */
		addpart(r, t + i, e - i, 1, k - 1);
		if (i >= 2)
			i -= 2;
	}
}

static int
overflow(struct dtrace_reader *r, struct fold_in *in, uint64_t line)
{
	fold_seterr_at(fold_in_name(in), line, "%s", fold_err());
	return -2;
}

/* The entry read so far ends with the count s[0..n). */
static int
endstack(struct dtrace_reader *r, struct fold_in *in, const char *s,
    size_t n, struct fold_diag *diag)
{
	struct fold_count c;
	size_t i, d = r->depth;
	const char *leaf, *p;
	size_t len;

	r->depth = 0;
	if (fold_count_parse(s, n, &c) < 0) {
		if (fold_warn(diag, fold_in_name(in), r->lineno,
		    "%s: stack dropped", fold_err()) < 0)
			return -2;
		return 0;
	}
	if (d == 0) {
		r->empty++;
		if (fold_count_add(&r->emptytotal, &c) < 0)
			return overflow(r, in, r->lineno);
		return 0;
	}
	r->ids = fold_grow(r->ids, &r->idcap, d, sizeof *r->ids);
	for (i = 0; i < d; i++)
		r->ids[i] = r->stack[d - 1 - i];
	if (r->opt.includeoffset) {
		/* the leaf's offset goes: where it is, not who called */
		leaf = fold_intern_str(r->frames, r->ids[d - 1], &len);
		if ((p = memrchr(leaf, '+', len)) != NULL)
			r->ids[d - 1] = p > leaf ?
			    fold_intern(r->frames, leaf, p - leaf) :
			    fold_intern(r->frames, "-", 1);
	}
	if (fold_stacks_add(r->st, r->ids, d, &c) < 0)
		return overflow(r, in, r->lineno);
	r->stacks++;
	return 0;
}

static void
frameline(struct dtrace_reader *r, const char *s, size_t n)
{
	uint32_t raw;
	struct rawinfo *ri;

	if (fold_intern_count(r->raw) >= RAW_MAX) {
		fold_intern_free(r->raw);
		r->raw = fold_intern_new();
		r->nri = 0;
		r->nparts = 0;
	}
	raw = fold_intern(r->raw, s, n);
	if (raw >= r->nri) {
		r->ri = fold_grow(r->ri, &r->ricap, (size_t)raw + 1,
		    sizeof *r->ri);
		ri = &r->ri[raw];
		ri->off = r->nparts;
		clean(r, s, n);
		ri->n = r->nparts - ri->off;
		r->nri = (size_t)raw + 1;
	}
	ri = &r->ri[raw];
	r->stack = fold_grow(r->stack, &r->stackcap, r->depth + ri->n,
	    sizeof *r->stack);
	memcpy(r->stack + r->depth, r->parts + ri->off,
	    ri->n * sizeof *r->stack);
	if (r->depth == 0)
		r->start = r->lineno;
	r->depth += ri->n;
}

static int
line(struct dtrace_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	const char *e = s + n;
	size_t i;

	while (s < e && fold_isspace(*s))
		s++;
	while (e > s && fold_isspace(e[-1]))
		e--;
	n = e - s;
	if (n == 0) {
		r->inhead = 0;
		return 0;
	}
	if (r->inhead)
		return 0;
	if (fold_isdigit(s[0])) {
		for (i = 1; i < n && fold_isdigit(s[i]); i++)
			;
		if (i == n)
			return endstack(r, in, s, n, diag);
	}
	frameline(r, s, n);
	return 0;
}

static int
dtrace_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct dtrace_reader *r = rp;
	const char *buf, *p, *end, *nl;
	size_t len;
	int rc;

	r->inhead = !r->inpart;	/* a part begins after the header */
	r->depth = 0;
	r->lineno = 0;
	while ((rc = fold_in_lines(in, &buf, &len)) > 0) {
		r->lineno = fold_in_lineno(in);	/* parts read between runs */
		end = buf + len;
		for (p = buf; p < end; p = nl + 1) {
			nl = memchr(p, '\n', end - p);
			if (!nl)
				nl = end;
			r->lineno++;
			if (line(r, in, p, nl - p, diag) < 0)
				return -2;
		}
		fold_in_set_lineno(in, r->lineno);
	}
	if (rc < 0) {
		r->depth = 0;
		return -1;
	}
	if (r->inhead && r->lineno > 0) {
		if (fold_warn(diag, fold_in_name(in), r->lineno, "%s",
		    "input ends in its header (no blank line before the "
		    "stacks): nothing read") < 0)
			return -2;
	}
	if (r->depth > 0) {
		r->depth = 0;
		if (fold_warn(diag, fold_in_name(in), r->start, "%s",
		    "stack without a count at the end of the input: "
		    "dropped") < 0)
			return -2;
	}
	return 0;
}

/* The next line of s[0..n) from *off: its trimmed text, 0 at the end. */
static int
nextline(const char *s, size_t n, size_t *off, int eof, const char **t,
    size_t *tn, int *indent)
{
	const char *p = s + *off, *e = s + n, *nl;

	if (p >= e)
		return 0;
	nl = memchr(p, '\n', e - p);
	if (!nl) {
		if (!eof)
			return 0;	/* cut short by the peek */
		nl = e;
	}
	*off = nl + 1 - s;
	e = nl;
	*indent = p < e && fold_isspace(*p);
	while (p < e && fold_isspace(*p))
		p++;
	while (e > p && fold_isspace(e[-1]))
		e--;
	*t = p;
	*tn = e - p;
	return 1;
}

/* "0x7fff5a3b": an address without a symbol */
static int
hexaddr(const char *s, size_t n)
{
	size_t i;

	if (n < 3 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (i = 2; i < n; i++)
		if (!fold_isxdigit(s[i]))
			return 0;
	return 1;
}

int
dtrace_detect(const char *head, size_t n, int eof)
{
	const char *t;
	size_t tn, off = 0, i, lines = 0;
	int indent, blank = 0, strong = 0;

	while (nextline(head, n, &off, eof, &t, &tn, &indent)) {
		lines++;
		if (tn == 0) {
			blank = 1;
			continue;
		}
		/* the column heads dtrace prints unless run with -q */
		if (lines == 1 && !indent && tn > 3 && memcmp(t, "CPU", 3) == 0 &&
		    memmem(t, tn, "FUNCTION:NAME", 13))
			return 2;
		if (!blank) {
			/* a header longer than dtrace's own is not one */
			if (lines > 8)
				return 0;
			continue;
		}
		if (!indent)
			return 0;
		for (i = 0; i < tn && fold_isdigit(t[i]); i++)
			;
		if (i == tn)	/* the first entry's count */
			return strong ? 2 : 0;
		/* some frame of it must be "module`name" or an address */
		if (memchr(t, '`', tn) || hexaddr(t, tn))
			strong = 1;
	}
	return !eof && strong ? 1 : 0;
}

static int
dtrace_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	const struct dtrace_reader *r = rp;
	char msg[512], buf[FOLD_COUNT_BUFSZ];

	if (r->empty) {
		fold_count_fmt(&r->emptytotal, buf);
		snprintf(msg, sizeof msg, "%llu %s without a stack dropped "
		    "(total %s)", (unsigned long long)r->empty,
		    r->empty == 1 ? "count" : "counts", buf);
		say(arg, msg);
	}
	return 0;
}

#define OFF(field) offsetof(struct dtrace_opt, field)

static const struct fold_option dtrace_options[] = {
	{ .name = "includeoffset", .kind = FOLD_OPT_FLAG,
	    .off = OFF(includeoffset), .value = 1,
	    .help = "keep the offset of every frame but the leaf" },
	{ .name = NULL }
};

#undef OFF

static const struct dtrace_opt dtrace_defaults = DTRACE_OPT_INIT;

/*
 * A part may begin after a count line and a blank line: the entry
 * before has ended, and the header too.
 */
static size_t
dtrace_split(const char *buf, size_t n)
{
	const char *p = buf, *e = buf + n, *q, *b;

	while ((q = memmem(p, e - p, "\n\n", 2)) != NULL) {
		for (b = q; b > buf && b[-1] != '\n'; b--)
			;
		if (b > buf) {	/* the line before the blank is whole */
			while (b < q && fold_isblank(*b))
				b++;
			while (b < q && fold_isdigit(*b))
				b++;
			while (b < q && fold_isblank(*b))
				b++;
			if (b == q && fold_isdigit(q[-1]))
				return q - buf + 2;
		}
		p = q + 1;
	}
	return n;
}

static void *
dtrace_part(void *rp, struct fold_stacks *st)
{
	const struct dtrace_reader *r = rp;
	struct dtrace_reader *p = dtrace_open(&r->opt, st);

	p->inpart = 1;
	return p;
}

static int
dtrace_join(void *rp, void *const *pp, size_t n)
{
	struct dtrace_reader *r = rp;
	struct fold_count total = r->emptytotal;
	size_t k;

	for (k = 0; k < n; k++) {
		const struct dtrace_reader *p = pp[k];
		if (fold_count_add(&total, &p->emptytotal) < 0)
			return 1;	/* r says the overflow, as read whole */
	}
	for (k = 0; k < n; k++) {
		const struct dtrace_reader *p = pp[k];
		r->stacks += p->stacks;
		r->empty += p->empty;
	}
	r->emptytotal = total;
	return 0;
}

const struct format_id dtrace_id = {
	.name = "dtrace",
	.tool = "stackcollapse-dtrace",
	.what = "DTrace stack(), ustack() and jstack() aggregations",
	.input = "DTrace output",
	.detect = dtrace_detect,
};

const struct format dtrace_format = {
	.id = &dtrace_id,
	.kind = FOLD_LINES,
	.one = "line or stack",
	.many = "lines or stacks",
	.options = dtrace_options,
	.optsize = sizeof(struct dtrace_opt),
	.defaults = &dtrace_defaults,
	.open = dtrace_open,
	.read = dtrace_read,
	.finish = dtrace_finish,
	.close = dtrace_close,
	.split = dtrace_split,
	.split_default = 1,
	.part = dtrace_part,
	.join = dtrace_join,
	.whole = 1,
};
