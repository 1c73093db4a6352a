#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/rustname.h"
#include "formats/sample.h"

/* Distinct call graph lines remembered (see formats/dtrace.c). */
#define RAW_MAX 65536

#define NODROP SIZE_MAX

static const char START[] = "Call graph:";
static const char END[] = "Total number in stack";

/* Where threads wait: a stack ending here is idle time, not work. */
static const char *const idle[] = {
	"__psynch_cvwait", "__select", "__semwait_signal", "__ulock_wait",
	"__wait4", "__workq_kernreturn", "kevent", "mach_msg_trap", "read",
	"semaphore_wait_trap",
};

enum { BEFORE, GRAPH, AFTER };

/* A function on the path from the thread to the line being read. */
struct node {
	uint64_t count, callees;	/* samples: in all, in callees */
	uint64_t line;
	int idle;
	int tainted;		/* a callee's line was skipped */
};

/* What a line's text after the count cleans to. */
struct rawinfo {
	uint32_t id;
	int idle;
};

struct sample_reader {
	struct sample_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;

	struct fold_intern *raw;
	struct rawinfo *ri;
	size_t nri, ricap;

	struct node *nodes;	/* root first */
	uint32_t *ids;		/* their frames */
	size_t depth, cap, idcap;
	size_t dropdepth;	/* lines deeper than this are skipped */
	char *buf;
	size_t bufcap;

	int phase;
	uint64_t lineno;
	int inpart;		/* reads parts of an input (format.h) */
	int sawgraph;		/* a part: a "Call graph:" line was read */

	uint64_t stacks;	/* stacks added */
	uint64_t idle;		/* dropped: idle stacks */
	struct fold_count idletotal;
	uint64_t dropped;	/* own samples of tainted functions */
};

static int
isindent(int c)
{
	return c == ' ' || c == '+' || c == '|' || c == ':' || c == '!';
}

static int
prefix(const char *s, size_t n, const char *p, size_t pn)
{
	return n >= pn && memcmp(s, p, pn) == 0;
}

static void *
sample_open(const void *optp, struct fold_stacks *st)
{
	const struct sample_opt *opt = optp;
	struct sample_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->raw = fold_intern_new();
	r->dropdepth = NODROP;
	return r;
}

static void
sample_close(void *rp)
{
	struct sample_reader *r = rp;
	if (!r)
		return;
	fold_intern_free(r->raw);
	free(r->ri);
	free(r->nodes);
	free(r->ids);
	free(r->buf);
	free(r);
}

static int bad(struct sample_reader *r, struct fold_in *in,
    struct fold_diag *diag, const char *what);

static int
fatal(struct sample_reader *r, struct fold_in *in, uint64_t line)
{
	fold_seterr_at(fold_in_name(in), line, "%s", fold_err());
	return -2;
}

/*
 * Skips a bad line and the lines under it. Its caller's own samples are
 * now unknown (they would include the skipped line's): they are dropped,
 * not given to the caller.
 */
static int
skip(struct sample_reader *r, struct fold_in *in, struct fold_diag *diag,
    size_t d, const char *what)
{
	r->dropdepth = d;
	if (r->depth > 0)
		r->nodes[r->depth - 1].tainted = 1;
	return bad(r, in, diag, what);
}

static int
bad(struct sample_reader *r, struct fold_in *in, struct fold_diag *diag,
    const char *what)
{
	if (fold_warn(diag, fold_in_name(in), r->lineno, "%s: line skipped",
	    what) < 0)
		return -2;
	return 0;
}

/*
 * Leaves the deepest function: its own samples, those not in its
 * callees, are one stack.
 */
static int
pop(struct sample_reader *r, struct fold_in *in, struct fold_diag *diag)
{
	struct node *nd = &r->nodes[r->depth - 1];
	struct fold_count c;

	if (nd->tainted) {
		if (nd->count > nd->callees)
			r->dropped += nd->count - nd->callees;
		r->depth--;
		return 0;
	}
	if (nd->callees > nd->count) {
		r->depth--;
		if (fold_warn(diag, fold_in_name(in), nd->line,
		    "callees have more samples (%llu) than the function "
		    "(%llu)", (unsigned long long)nd->callees,
		    (unsigned long long)nd->count) < 0)
			return -2;
		return 0;
	}
	c = fold_count_u64(nd->count - nd->callees);
	if (c.v.u > 0 && nd->idle) {
		r->idle++;
		if (fold_count_add(&r->idletotal, &c) < 0)
			return fatal(r, in, nd->line);
	} else if (c.v.u > 0) {
		if (fold_stacks_add(r->st, r->ids, r->depth, &c) < 0)
			return fatal(r, in, nd->line);
		r->stacks++;
	}
	r->depth--;
	return 0;
}

static int
flush(struct sample_reader *r, struct fold_in *in, struct fold_diag *diag)
{
	while (r->depth > 0)
		if (pop(r, in, diag) < 0)
			return -2;
	r->dropdepth = NODROP;
	return 0;
}

/* The function of a line, "module`function", from the text after the count. */
static void
clean(struct sample_reader *r, const char *s, size_t n, struct rawinfo *ri)
{
	const char *f = s, *fe, *mod = NULL, *me = NULL, *p;
	size_t k, i, o;
	char *b;

	fe = memchr(s, '(', n);
	if (!fe)
		fe = s + n;
	while (f < fe && fold_isspace(*f))
		f++;
	while (fe > f && fold_isspace(fe[-1]))
		fe--;
	if (!r->opt.no_modules) {
		/* the last "(in module)" */
		for (p = s + n; p >= s + 4; p--)
			if (memcmp(p - 4, "(in ", 4) == 0)
				break;
		if (p >= s + 4 && (me = memchr(p, ')', s + n - p)) != NULL) {
			mod = p;
			if (me - mod >= 6 && memcmp(me - 6, ".dylib", 6) == 0)
				me -= 6;
		}
	}
	ri->idle = 0;
	for (i = 0; i < sizeof idle / sizeof idle[0]; i++)
		if (strlen(idle[i]) == (size_t)(fe - f) &&
		    memcmp(idle[i], f, fe - f) == 0)
			ri->idle = 1;
	b = r->buf = fold_grow(r->buf, &r->bufcap, n + 2, 1);
	o = 0;
	if (mod && me > mod) {
		memcpy(b, mod, me - mod);
		o = me - mod;
		b[o++] = '`';
	}
	k = rustname_fix(f, fe - f, b + o);
	if (k == (size_t)-1) {
		memcpy(b + o, f, fe - f);
		k = fe - f;
	}
	if (k == 0)
		b[o + k++] = '-';
	o += k;
	for (i = 0; i < o; i++)
		if (b[i] == ';')
			b[i] = ':';
	ri->id = fold_intern(r->frames, b, o);
}

static int
graphline(struct sample_reader *r, struct fold_in *in, const char *s,
    size_t n, struct fold_diag *diag)
{
	const char *e = s + n, *p, *cnt;
	struct fold_count c;
	struct rawinfo *ri;
	struct node *nd;
	size_t d;
	uint32_t raw;

	for (p = s + 4; p < e && isindent(*p); p++)
		;
	/* an odd one is taken as a stray blank after the indentation */
	d = (p - (s + 4)) / 2;
	if (r->dropdepth != NODROP) {
		if (d > r->dropdepth)
			return 0;	/* under a line skipped */
		r->dropdepth = NODROP;
	}
	while (r->depth > d)
		if (pop(r, in, diag) < 0)
			return -2;
	if (p == e)
		return skip(r, in, diag, d,
		    "call graph line of indentation only");
	if ((p - (s + 4)) % 2)
		return skip(r, in, diag, d,
		    "odd number of indentation characters");
	if (d > r->depth)
		return skip(r, in, diag, d, "indentation skips a level");
	cnt = p;
	while (p < e && *p != ' ')
		p++;
	if (fold_count_parse(cnt, p - cnt, &c) < 0 || c.frac)
		return skip(r, in, diag, d,
		    "sample count is not a whole number");
	if (p == e)
		return skip(r, in, diag, d,
		    "no function after the sample count");
	p++;
	if (fold_intern_count(r->raw) >= RAW_MAX) {
		fold_intern_free(r->raw);
		r->raw = fold_intern_new();
		r->nri = 0;
	}
	raw = fold_intern(r->raw, p, e - p);
	if (raw >= r->nri) {
		r->ri = fold_grow(r->ri, &r->ricap, (size_t)raw + 1,
		    sizeof *r->ri);
		clean(r, p, e - p, &r->ri[raw]);
		r->nri = (size_t)raw + 1;
	}
	ri = &r->ri[raw];
	if (r->depth > 0) {
		nd = &r->nodes[r->depth - 1];
		if (__builtin_add_overflow(nd->callees, c.v.u, &nd->callees)) {
			fold_seterr("sample count overflow");
			return fatal(r, in, r->lineno);
		}
	}
	r->nodes = fold_grow(r->nodes, &r->cap, r->depth + 1, sizeof *r->nodes);
	r->ids = fold_grow(r->ids, &r->idcap, r->depth + 1, sizeof *r->ids);
	nd = &r->nodes[r->depth];
	nd->count = c.v.u;
	nd->callees = 0;
	nd->line = r->lineno;
	nd->idle = ri->idle;
	nd->tainted = 0;
	r->ids[r->depth++] = ri->id;
	return 0;
}

static int
line(struct sample_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	while (n > 0 && fold_isspace(s[n - 1]))
		n--;
	if (prefix(s, n, START, sizeof START - 1)) {
		if (flush(r, in, diag) < 0)
			return -2;
		r->phase = GRAPH;
		r->sawgraph = 1;
		return 0;
	}
	if (r->phase != GRAPH || n == 0)
		return 0;
	if (prefix(s, n, "    ", 4))
		return graphline(r, in, s, n, diag);
	if (prefix(s, n, END, sizeof END - 1)) {
		r->phase = AFTER;
		return flush(r, in, diag);
	}
	if (r->depth > 0)
		r->nodes[r->depth - 1].tainted = 1;
	return bad(r, in, diag, "call graph line without its 4 spaces");
}

static int
sample_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct sample_reader *r = rp;
	const char *buf, *p, *end, *nl;
	size_t len;
	int rc;

	/*
	 * A part begins after a report's end (sample_split): outside the
	 * call graph, as after the header, but not still in the header,
	 * which would be warned about at its end.
	 */
	r->phase = r->inpart ? AFTER : BEFORE;
	r->depth = 0;
	r->dropdepth = NODROP;
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
	if (r->phase == BEFORE && r->lineno > 0 &&
	    fold_warn(diag, fold_in_name(in), 0, "%s", "no \"Call graph:\" "
	    "line: not a sample report, nothing read") < 0)
		return -2;
	if (r->phase == GRAPH && fold_warn(diag, fold_in_name(in),
	    r->lineno, "%s", "input ends inside the call graph (cut short?)") < 0)
		return -2;
	return flush(r, in, diag);
}

int
sample_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *e = head + n, *nl;
	static const char first[] = "Analysis of sampling ";
	int graph = 0;

	if (prefix(head, n, first, sizeof first - 1))
		return 2;
	for (; p < e; p = nl + 1) {
		nl = memchr(p, '\n', e - p);
		if (!nl && !eof)
			break;
		if (!nl)
			nl = e;
		if (graph && nl > p) {
			/* the first thread: "    825 Thread_..." */
			if (prefix(p, nl - p, "    ", 4) && nl - p > 4 &&
			    fold_isdigit(p[4]))
				return 2;
			return 0;
		}
		if (prefix(p, nl - p, START, sizeof START - 1))
			graph = 1;
	}
	return graph;
}

static int
sample_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	const struct sample_reader *r = rp;
	char msg[512], buf[FOLD_COUNT_BUFSZ];

	if (r->idle) {
		fold_count_fmt(&r->idletotal, buf);
		snprintf(msg, sizeof msg, "%llu %s of waiting threads "
		    "dropped (%s samples)", (unsigned long long)r->idle,
		    r->idle == 1 ? "stack" : "stacks", buf);
		say(arg, msg);
	}
	if (r->dropped) {
		snprintf(msg, sizeof msg, "%llu samples next to skipped lines "
		    "dropped", (unsigned long long)r->dropped);
		say(arg, msg);
	}
	return 0;
}

#define OFF(field) offsetof(struct sample_opt, field)

static const struct fold_option sample_options[] = {
	{ .name = "no-modules", .kind = FOLD_OPT_FLAG, .off = OFF(no_modules),
	    .value = 1,
	    .help = "name frames by their function only" },
	{ .name = NULL }
};

#undef OFF

static const struct sample_opt sample_defaults = SAMPLE_OPT_INIT;

/*
 * A part may begin after a "Total number in stack" line: the call
 * graph before it has ended (and its stacks are added), and whatever
 * follows is skipped up to the next "Call graph:" line. Within one
 * report there is no such place: a report is read whole.
 */
static size_t
sample_split(const char *buf, size_t n)
{
	static const char end[] = "\nTotal number in stack";
	const char *e = buf + n, *q, *nl;

	if ((q = memmem(buf, n, end, sizeof end - 1)) == NULL ||
	    (nl = memchr(q + 1, '\n', e - q - 1)) == NULL)
		return n;
	return nl + 1 - buf;
}

static void *
sample_part(void *rp, struct fold_stacks *st)
{
	const struct sample_reader *r = rp;
	struct sample_reader *p = sample_open(&r->opt, st);

	p->inpart = 1;
	return p;
}

static int
sample_join(void *rp, void *const *pp, size_t n)
{
	struct sample_reader *r = rp;
	struct fold_count total = r->idletotal;
	size_t k;

	for (k = 0; k < n; k++) {
		const struct sample_reader *p = pp[k];
		if (fold_count_add(&total, &p->idletotal) < 0)
			return 1;	/* r says the overflow, as read whole */
	}
	for (k = 0; k < n; k++) {
		const struct sample_reader *p = pp[k];
		r->stacks += p->stacks;
		r->idle += p->idle;
		r->dropped += p->dropped;
		/* the header is over once a part met a call graph */
		if (p->sawgraph && r->phase == BEFORE)
			r->phase = AFTER;
	}
	r->idletotal = total;
	return 0;
}

const struct format_id sample_id = {
	.name = "sample",
	.tool = "stackcollapse-sample",
	.what = "macOS sample reports",
	.input = "a macOS sample report",
	.detect = sample_detect,
};

const struct format sample_format = {
	.id = &sample_id,
	.kind = FOLD_LINES,
	.one = "line",
	.many = "lines",
	.options = sample_options,
	.optsize = sizeof(struct sample_opt),
	.defaults = &sample_defaults,
	.open = sample_open,
	.read = sample_read,
	.finish = sample_finish,
	.close = sample_close,
	.split = sample_split,
	.split_default = 1,
	.part = sample_part,
	.join = sample_join,
	.whole = 1,
};
