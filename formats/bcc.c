#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/bcc.h"

enum { NONE, BLOCK, BPFTRACE, SKIP };

/* A line of a multi-line block, or a frame of a bpftrace key. */
struct rec {
	size_t off, len;	/* in txt: the trimmed text */
	int indent;
	uint32_t raw;		/* a plain frame line: its raw id, text not
				   kept; FOLD_NOFRAME otherwise */
};

/* An element of a bpftrace key: a scalar or a stack. */
struct elem {
	size_t off, len;	/* scalar text in txt */
	size_t f0, nf;		/* its frames: recs[f0 .. f0+nf) */
};

/* A frame of the entry being put together. */
struct item {
	uint32_t id;		/* its cleaned name */
	uint32_t raw;		/* the line it came from, or FOLD_NOFRAME */
	int kind;		/* F_FRAME, F_COMM, F_SEP, F_DASH, F_DASH2 */
	int kernel;		/* 1, 0, -1 unknown */
	int kname;		/* bcc_kernel_name() of the name */
};

/* What a frame line, as printed, cleans to (lines repeat a lot). */
struct rawinfo {
	uint32_t id, annot;	/* cleaned name; with "_[k]" (or NOFRAME) */
	signed char kernel, kname;
};

enum { F_FRAME, F_COMM, F_SEP, F_DASH, F_DASH2 };

/* What was read, over every input. */
struct bcc_stats {
	uint64_t empty;		/* dropped: entries without any frame */
	struct fold_count emptytotal;	/* their counts */
	uint64_t nostack;	/* dropped: bpftrace entries whose key holds
				   no stack (other maps, @[]) */
	uint64_t multiline, folded, bpftrace;	/* entries of each form */
	char toolwarn[256];	/* the first "WARNING: ..." line of the input */
};

struct bcc_reader {
	struct bcc_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	struct bcc_stats stats;

	int state;
	uint64_t start;		/* line of the entry being read */
	int want;		/* bpftrace: the map is selected */
	char *txt;
	size_t tlen, tcap;
	struct rec *recs;
	size_t nrec, reccap;
	struct elem *el;
	size_t nel, elcap;
	struct item *items;
	size_t nitem, itemcap;
	char *scratch;
	size_t scap;
	struct fold_intern *raw;
	struct rawinfo *rinfo;
	size_t nrinfo, rcap;
	uint32_t *ids;
	size_t idcap;

	/* reading parts of an input (format.h) */
	int inpart;
	int unsure;		/* a piece ended where its next may not begin */
	uint64_t warnorigin;	/* the origin of the piece of toolwarn */
};

static int
hexval(int c)
{
	return fold_isdigit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* A count line: digits, maybe signed or with a fraction (refused later). */
static int
countlike(const char *s, size_t n)
{
	size_t i = 0;

	if (n > 1 && (s[0] == '-' || s[0] == '+'))
		i = 1;
	if (i == n || !fold_isdigit(s[i]))
		return 0;
	for (; i < n; i++)
		if (!fold_isdigit(s[i]) && s[i] != '.')
			return 0;
	return 1;
}

#define P(s) { s, sizeof s - 1 }
static const struct {
	const char *s;
	size_t n;
} kprefixes[] = {
	P("entry_SYSCALL"), P("entry_INT80"), P("entry_SYSENTER"), P("asm_"),
	P("ret_from_fork"), P("el0t_"), P("el0_svc"), P("el1h_"),
	P("secondary_startup"), P("start_kernel"), P("x86_64_start"),
	P("common_startup_64"), P("cpu_startup_entry"), P("kthread"),
	P("do_syscall_64"), P("__x64_sys_"), P("__ia32_sys_"),
	P("__arm64_sys_"), P("x64_sys_call"), P("__schedule"), P("schedule"),
	P("bpf_prog_"), P("bpf_trace_run"), P("irqentry_"), P("sysvec_"),
	P("__sysvec_"), P("do_idle"), P("smpboot_thread_fn"),
	P("worker_thread"), P("exit_to_user_mode"),
	P("syscall_exit_to_user_mode"),
};
#undef P

/*
 * 1 when name is a function that only the kernel has: system call and
 * interrupt entry code (entry_SYSCALL_64, asm_sysvec_*, el0t_64_sync),
 * the scheduler (schedule, __schedule), kernel thread roots (kthread,
 * ret_from_fork) and BPF trampolines. Stacks that show no address are
 * split into user and kernel frames by these.
 */
static int
bcc_kernel_name(const char *s, size_t n)
{
	/* the first bytes of kprefixes (kept in step with it), so that most
	   names need no more look; constant, as threads may share it */
	static const char first[] = "_abcdeikrswx";
	size_t i;

	if (n == 0 || s[0] == '\0' || !strchr(first, s[0]))
		return 0;
	for (i = 0; i < sizeof kprefixes / sizeof kprefixes[0]; i++)
		if (n >= kprefixes[i].n && s[0] == kprefixes[i].s[0] &&
		    memcmp(s, kprefixes[i].s, kprefixes[i].n) == 0)
			return 1;
	return 0;
}

/* Decodes the body of a python bytes literal into out; returns length. */
static size_t
pybytes(const char *s, size_t n, char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			out[o++] = s[i];
			continue;
		}
		i++;
		switch (s[i]) {
		case 'x':
			if (i + 2 < n + 0 && fold_isxdigit(s[i + 1]) &&
			    fold_isxdigit(s[i + 2])) {
				out[o++] = (char)(hexval(s[i + 1]) * 16 +
				    hexval(s[i + 2]));
				i += 2;
			} else
				out[o++] = 'x';
			break;
		case 'n':
		case 't':
		case 'r':
			out[o++] = '_';
			break;
		default:	/* \\ \' \" */
			out[o++] = s[i];
		}
	}
	return o;
}

/*
 * 1 when s[0..n), after blanks, is "SYM (MODULE)": the rest of a perf-mode
 * frame, whose address may be as short as "1" (bpftrace prints
 * "1 0x1 ([unknown])").
 */
static int
perfmod(const char *s, size_t n)
{
	size_t i;

	while (n > 0 && fold_isspace(*s))
		s++, n--;
	if (n < 4 || s[n - 1] != ')')
		return 0;
	for (i = n - 1; i > 2; i--)
		if (s[i - 1] == '(' && s[i - 2] == ' ')
			return 1;
	return 0;
}

/*
 * Cleans one frame as printed by any of the tools into buf (at least
 * n + 16 bytes): leading addresses and "#N", "+0x1f"/"+31" offsets and
 * perf-mode " (module)" are dropped, b'...' is decoded, ';' and control
 * bytes become '_', an unknown symbol becomes "[unknown]" or "[module]".
 * Returns the length; *kernel is set to 1 or 0 when an address or module
 * tells, -1 otherwise.
 */
static size_t
bcc_frame(const char *s, size_t n, char *buf, int *kernel)
{
	const char *mod = NULL, *p, *e;
	size_t modlen = 0, i, o, k;
	unsigned long long addr = 0;
	int haveaddr = 0;

	*kernel = -1;
	while (n > 0 && fold_isspace(*s))
		s++, n--;
	while (n > 0 && fold_isspace(s[n - 1]))
		n--;
	/* libbpf-tools -v: "#3  0x00007f... name+0x4f (dso+0x8f)" */
	if (n > 1 && s[0] == '#' && fold_isdigit(s[1])) {
		for (i = 1; i < n && fold_isdigit(s[i]); i++)
			;
		while (i < n && fold_isspace(s[i]))
			i++;
		s += i;
		n -= i;
	}
	/* an address: "0x..." or at least 8 hex digits, then a blank */
	p = s;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		p = s + 2;
	for (e = p; e < s + n && fold_isxdigit(*e); e++)
		;
	if (e < s + n && fold_isspace(*e) && (e - p >= 8 ||
	    (p > s && e > p) || (e > p && perfmod(e, s + n - e)))) {
		for (; p < e && e - p > 16; p++)
			;
		for (; p < e; p++)
			addr = addr << 4 | hexval(*p);
		haveaddr = 1;
		*kernel = addr >= 0xffff800000000000ULL;
		while (e < s + n && fold_isspace(*e))
			e++;
		n -= e - s;
		s = e;
		/* perf mode: " (module)" at the end */
		if (n > 2 && s[n - 1] == ')') {
			for (i = n - 1; i > 1; i--)
				if (s[i - 1] == '(' && s[i - 2] == ' ')
					break;
			if (i > 1) {
				mod = s + i;
				modlen = n - 1 - i;
				n = i - 2;
				if (modlen == 17 &&
				    memcmp(mod, "[kernel.kallsyms]", 17) == 0)
					*kernel = 1;
			}
		}
	}
	/* python bytes: b'name' or b"name" */
	if (n >= 3 && s[0] == 'b' && (s[1] == '\'' || s[1] == '"') &&
	    s[n - 1] == s[1]) {
		o = pybytes(s + 2, n - 3, buf);
	} else {
		memcpy(buf, s, n);
		o = n;
	}
	/* "+0x1f" or "+31" offset */
	for (i = o; i > 0 && fold_isxdigit(buf[i - 1]); i--)
		;
	if (i < o && i > 1 && buf[i - 1] == 'x' && buf[i - 2] == '0' &&
	    i > 2 && buf[i - 3] == '+')
		o = i - 3;
	else if (i < o && i > 0 && buf[i - 1] == '+') {
		for (k = i; k < o && fold_isdigit(buf[k]); k++)
			;
		if (k == o && i > 1)
			o = i - 1;
	}
	if ((o == 7 && (memcmp(buf, "unknown", 7) == 0 ||
	    memcmp(buf, "Unknown", 7) == 0)) ||
	    (o == 9 && memcmp(buf, "[unknown]", 9) == 0) || o == 0) {
		if (mod && modlen) {
			/* "[libc.so.6]" from "/usr/lib/libc.so.6+0x8f" */
			const char *b = memrchr(mod, '/', modlen);
			const char *plus;
			b = b ? b + 1 : mod;
			k = mod + modlen - b;
			plus = memchr(b, '+', k);
			if (plus)
				k = plus - b;
			if (k > 0 && b[0] == '[') {
				memmove(buf, b, k);
				o = k;
			} else {
				buf[0] = '[';
				memmove(buf + 1, b, k);
				buf[k + 1] = ']';
				o = k + 2;
			}
		} else {
			memcpy(buf, "[unknown]", 9);
			o = 9;
		}
	}
	for (i = 0; i < o; i++) {
		unsigned char c = buf[i];
		buf[i] = c == ';' || c < ' ' ? '_' : c;
	}
	(void)haveaddr;
	return o;
}

static void *
bcc_open(const void *optp, struct fold_stacks *st)
{
	const struct bcc_opt *opt = optp;
	struct bcc_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	if (r->opt.map && r->opt.map[0] == '@')
		r->opt.map++;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->raw = fold_intern_new();
	return r;
}

static void
bcc_close(void *rp)
{
	struct bcc_reader *r = rp;
	if (!r)
		return;
	free(r->txt);
	free(r->recs);
	free(r->el);
	free(r->items);
	free(r->scratch);
	free(r->rinfo);
	fold_intern_free(r->raw);
	free(r->ids);
	free(r);
}

/* Totals over every input read so far. */
static const struct bcc_stats *
bcc_reader_stats(const struct bcc_reader *r)
{
	return &r->stats;
}

static int
warn(struct fold_diag *diag, struct fold_in *in, uint64_t line,
    const char *fmt, const char *arg)
{
	if (fold_warn(diag, fold_in_name(in), line, fmt, arg) < 0)
		return -2;
	return 0;
}

/* Saves s[0..n) in txt; returns its offset. */
static size_t
save(struct bcc_reader *r, const char *s, size_t n)
{
	size_t off = r->tlen;

	r->txt = fold_grow(r->txt, &r->tcap, r->tlen + n + 1, 1);
	memcpy(r->txt + off, s, n);
	r->tlen += n;
	return off;
}

static struct rec *
newrec(struct bcc_reader *r, int indent)
{
	struct rec *rc;

	r->recs = fold_grow(r->recs, &r->reccap, r->nrec + 1, sizeof *r->recs);
	rc = &r->recs[r->nrec++];
	rc->indent = indent;
	rc->raw = FOLD_NOFRAME;
	rc->off = rc->len = 0;
	return rc;
}

static uint32_t rawframe(struct bcc_reader *r, const char *s, size_t n);

/*
 * A line of a block or key. Lines that can only be frames are interned
 * at once; the others (comm lines, markers, what may be stackcount's
 * "comm [pid]") are kept as text for the end of the entry.
 */
static void
addrec(struct bcc_reader *r, const char *s, size_t n, int indent)
{
	struct rec *rc = newrec(r, indent);

	if (r->state == BPFTRACE || (s[0] != '-' && s[n - 1] != ']' &&
	    !(n >= 6 && (memcmp(s, "target:", 6) == 0 ||
	    memcmp(s, "waker:", 6) == 0)))) {
		rc->raw = rawframe(r, s, n);
		return;
	}
	rc->off = save(r, s, n);
	rc->len = n;
}

static struct item *
newitem(struct bcc_reader *r, int kind)
{
	struct item *it;

	r->items = fold_grow(r->items, &r->itemcap, r->nitem + 1,
	    sizeof *r->items);
	it = &r->items[r->nitem++];
	it->raw = FOLD_NOFRAME;
	it->kind = kind;
	it->kernel = -1;
	it->kname = 0;
	return it;
}

/* The raw id of a frame line, cleaned once per distinct line. */
static uint32_t
rawframe(struct bcc_reader *r, const char *s, size_t n)
{
	uint32_t raw = fold_intern(r->raw, s, n);
	struct rawinfo *ri;
	size_t len;
	int kernel;

	if (raw >= r->nrinfo) {
		r->scratch = fold_grow(r->scratch, &r->scap, n + 32, 1);
		len = bcc_frame(s, n, r->scratch, &kernel);
		r->rinfo = fold_grow(r->rinfo, &r->rcap, (size_t)raw + 1,
		    sizeof *r->rinfo);
		ri = &r->rinfo[raw];
		ri->id = fold_intern(r->frames, r->scratch, len);
		ri->annot = FOLD_NOFRAME;
		ri->kernel = kernel;
		ri->kname = bcc_kernel_name(r->scratch, len);
		r->nrinfo = (size_t)raw + 1;
	}
	return raw;
}

static void
additem_raw(struct bcc_reader *r, uint32_t raw)
{
	struct rawinfo *ri = &r->rinfo[raw];
	struct item *it = newitem(r, F_FRAME);

	it->id = ri->id;
	it->raw = raw;
	it->kernel = ri->kernel;
	it->kname = ri->kname;
}

/* Appends a comm or a marker, its text used as it is. */
static void
addtext(struct bcc_reader *r, const char *s, size_t n, int kind)
{
	struct item *it;
	size_t i;

	if (n == 0) {
		s = "[unknown]";
		n = 9;
	}
	r->scratch = fold_grow(r->scratch, &r->scap, n + 1, 1);
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];
		r->scratch[i] = c == ';' || c < ' ' ? '_' : c;
	}
	it = newitem(r, kind);
	it->id = fold_intern(r->frames, r->scratch, n);
}

/* A comm with an optional pid: "comm-PID" under --pid. */
static void
addcomm(struct bcc_reader *r, const char *comm, size_t n, const char *pid,
    size_t pn)
{
	char *b = fold_malloc(n + 1 + pn + 1);
	size_t k;

	/* python bytes: b'bash' */
	if (n >= 3 && comm[0] == 'b' && (comm[1] == '\'' || comm[1] == '"') &&
	    comm[n - 1] == comm[1])
		k = pybytes(comm + 2, n - 3, b);
	else {
		memcpy(b, comm, n);
		k = n;
	}
	if (r->opt.pid && pn) {
		b[k++] = '-';
		memcpy(b + k, pid, pn);
		k += pn;
	}
	addtext(r, b, k, F_COMM);
	free(b);
}

/* Splits "comm (pid)" or "comm pid" or "comm [pid]" into its parts. */
static void
splitcomm(const char *s, size_t n, const char **pid, size_t *pn, size_t *cn,
    char open, char close)
{
	size_t i;

	*pid = NULL;
	*pn = 0;
	*cn = n;
	if (open) {
		if (n < 4 || s[n - 1] != close)
			return;
		for (i = n - 1; i > 0 && fold_isdigit(s[i - 1]); i--)
			;
		if (i == n - 1 || i < 2 || s[i - 1] != open ||
		    s[i - 2] != ' ')
			return;
		*pid = s + i;
		*pn = n - 1 - i;
		*cn = i - 2;
	} else {
		for (i = n; i > 0 && fold_isdigit(s[i - 1]); i--)
			;
		if (i == n || i < 2 || s[i - 1] != ' ')
			return;
		*pid = s + i;
		*pn = n - i;
		for (*cn = i - 1; *cn > 0 && s[*cn - 1] == ' '; (*cn)--)
			;
	}
}

static const char *
skipblank(const char *s, const char *e)
{
	while (s < e && fold_isspace(*s))
		s++;
	return s;
}

/* Sets the kernel flag of the unknown frames of items[a..b). */
static void
split_kernel(struct bcc_reader *r, size_t a, size_t b, int rootfirst)
{
	size_t i, dash = b, dash2 = b, last = b;
	struct item *it = r->items;

	for (i = a; i < b; i++) {
		if (it[i].kind == F_DASH2 && dash2 == b)
			dash2 = i;
		if (it[i].kind == F_DASH && dash == b)
			dash = i;
	}
	if (dash2 < b || dash < b) {
		size_t d = dash2 < b ? dash2 : dash;
		for (i = a; i < b; i++)
			if (it[i].kind == F_FRAME && it[i].kernel < 0)
				it[i].kernel = rootfirst ? i > d : i < d;
		return;
	}
	if (!rootfirst) {
		/* leaf first: kernel frames up to the last entry point */
		for (i = a; i < b; i++)
			if (it[i].kind == F_FRAME && it[i].kname)
				last = i;
		for (i = a; i < b; i++)
			if (it[i].kind == F_FRAME && it[i].kernel < 0)
				it[i].kernel = last < b && i <= last;
	} else {
		for (i = a; i < b; i++)
			if (it[i].kind == F_FRAME && it[i].kname) {
				last = i;
				break;
			}
		for (i = a; i < b; i++)
			if (it[i].kind == F_FRAME && it[i].kernel < 0)
				it[i].kernel = last < b && i >= last;
	}
}

/* The id of item it with "_[k]" appended. */
static uint32_t
annotated(struct bcc_reader *r, const struct item *it)
{
	const char *name;
	size_t len;
	uint32_t id;

	if (it->raw != FOLD_NOFRAME && r->rinfo[it->raw].annot != FOLD_NOFRAME)
		return r->rinfo[it->raw].annot;
	name = fold_intern_str(r->frames, it->id, &len);
	r->scratch = fold_grow(r->scratch, &r->scap, len + 5, 1);
	memcpy(r->scratch, name, len);
	memcpy(r->scratch + len, "_[k]", 4);
	id = fold_intern(r->frames, r->scratch, len + 4);
	if (it->raw != FOLD_NOFRAME)
		r->rinfo[it->raw].annot = id;
	return id;
}

/* Adds the stack of items in the given order (markers left out). */
static int
emit(struct bcc_reader *r, struct fold_in *in, const size_t *order, size_t n,
    const struct fold_count *c)
{
	size_t i, k = 0;
	struct item *it;

	r->ids = fold_grow(r->ids, &r->idcap, n + 1, sizeof *r->ids);
	for (i = 0; i < n; i++) {
		it = &r->items[order[i]];
		if (it->kind == F_DASH || it->kind == F_DASH2)
			continue;
		if (r->opt.kernel && it->kind == F_FRAME && it->kernel == 1)
			r->ids[k++] = annotated(r, it);
		else
			r->ids[k++] = it->id;
	}
	if (k == 0) {
		r->stats.empty++;
		if (fold_count_add(&r->stats.emptytotal, c) < 0)
			return fold_seterr_at(fold_in_name(in), r->start, "%s",
			    fold_err()), -2;
		return 0;
	}
	if (fold_stacks_add(r->st, r->ids, k, c) < 0)
		return fold_seterr_at(fold_in_name(in), r->start, "%s",
		    fold_err()), -2;
	return 0;
}

/* A multi-line block (recs) closed by its count. */
static int
finish_block(struct bcc_reader *r, struct fold_in *in, const char *cnt,
    size_t cn, struct fold_diag *diag)
{
	struct fold_count c;
	size_t i, n = r->nrec, sep = (size_t)-1, a, *order;
	const char *t, *pid;
	size_t tn, pn, commlen;
	int rc;

	r->state = NONE;
	r->nitem = 0;
	if (fold_count_parse(cnt, cn, &c) < 0)
		return warn(diag, in, fold_in_lineno(in), "%s: entry dropped",
		    fold_err());
	r->stats.multiline++;
	for (i = 0; i < n; i++) {
		if (r->recs[i].raw != FOLD_NOFRAME) {
			additem_raw(r, r->recs[i].raw);
			continue;
		}
		t = r->txt + r->recs[i].off;
		tn = r->recs[i].len;
		if (tn == 2 && memcmp(t, "--", 2) == 0)
			addtext(r, t, tn, F_DASH2);
		else if (tn == 1 && t[0] == '-')
			addtext(r, t, tn, F_DASH);
		else if (tn > 2 && t[0] == '-' && t[1] == '-' &&
		    fold_isspace(t[2]) && tn >= 4 && t[tn - 1] == '-' &&
		    t[tn - 2] == '-') {
			addtext(r, "--", 2, F_SEP);
			sep = r->nitem - 1;
		} else if (tn > 2 && t[0] == '-' && fold_isspace(t[1])) {
			/* "-                comm (pid)" */
			t = skipblank(t + 1, t + tn);
			tn = r->txt + r->recs[i].off + r->recs[i].len - t;
			splitcomm(t, tn, &pid, &pn, &commlen, '(', ')');
			addcomm(r, t, commlen, pid, pn);
		} else if ((tn >= 7 && memcmp(t, "target:", 7) == 0) ||
		    (tn >= 6 && memcmp(t, "waker:", 6) == 0)) {
			const char *e = t + tn;
			t = skipblank(t + (t[0] == 't' ? 7 : 6), e);
			splitcomm(t, e - t, &pid, &pn, &commlen, 0, 0);
			addcomm(r, t, commlen, pid, pn);
		} else if (i == n - 1 && n > 1 &&
		    r->recs[i].indent > r->recs[0].indent && tn > 3 &&
		    t[tn - 1] == ']') {
			/* stackcount's "b'comm' [pid]", indented deeper */
			splitcomm(t, tn, &pid, &pn, &commlen, '[', ']');
			if (pn)
				addcomm(r, t, commlen, pid, pn);
			else
				additem_raw(r, rawframe(r, t, tn));
		} else
			additem_raw(r, rawframe(r, t, tn));
	}
	/* segments between comm lines and the waker/target separator */
	a = 0;
	for (i = 0; r->opt.kernel && i <= r->nitem; i++) {
		if (i < r->nitem && r->items[i].kind != F_COMM &&
		    r->items[i].kind != F_SEP)
			continue;
		split_kernel(r, a, i, sep != (size_t)-1 && i <= sep);
		a = i + 1;
	}
	order = fold_reallocarray(NULL, r->nitem + 1, sizeof *order);
	for (i = 0; i < r->nitem; i++)
		order[i] = r->nitem - 1 - i;
	rc = emit(r, in, order, r->nitem, &c);
	free(order);
	return rc;
}

/* Adds the text s[0..n) of a bpftrace key to the elements. */
static void
glue(struct bcc_reader *r, const char *s, size_t n)
{
	const char *e = s + n, *comma;
	struct elem *el;

	for (;;) {
		el = &r->el[r->nel - 1];
		comma = NULL;
		if (s < e)
			comma = memmem(s, e - s, ", ", 2);
		if (!comma) {
			if (s < e) {
				if (el->len == 0)
					el->off = r->tlen;
				save(r, s, e - s);
				el->len += e - s;
			}
			return;
		}
		if (comma > s) {
			if (el->len == 0)
				el->off = r->tlen;
			save(r, s, comma - s);
			el->len += comma - s;
		}
		r->el = fold_grow(r->el, &r->elcap, r->nel + 1, sizeof *r->el);
		memset(&r->el[r->nel++], 0, sizeof *r->el);
		s = comma + 2;
	}
}

static void
bt_begin(struct bcc_reader *r, uint64_t line)
{
	r->state = BPFTRACE;
	r->start = line;
	r->nrec = r->nel = 0;
	r->tlen = 0;
	r->el = fold_grow(r->el, &r->elcap, 1, sizeof *r->el);
	memset(&r->el[0], 0, sizeof *r->el);
	r->nel = 1;
}

/* The key's stacks: scalars at the root, then user, then kernel stacks. */
static int
bt_finish(struct bcc_reader *r, struct fold_in *in, const char *cnt,
    size_t cn, struct fold_diag *diag)
{
	struct fold_count c;
	size_t i, j, n, stacks = 0, *order, no = 0, first;
	int pass, kern, rc;
	struct elem *el;
	struct rec *f;

	r->state = NONE;
	if (!r->want)
		return 0;
	if (fold_count_parse(cnt, cn, &c) < 0)
		return warn(diag, in, fold_in_lineno(in), "%s: entry dropped",
		    fold_err());
	r->stats.bpftrace++;
	r->nitem = 0;
	for (i = 0; i < r->nel; i++)
		if (r->el[i].nf)
			stacks++;
	if (stacks == 0) {
		/*
		 * "@[comm]": no stack in the key. "@[, , comm, pid]": stacks
		 * that came back empty; the sample is kept as its scalars,
		 * as stackcollapse-perf keeps one without frames as its
		 * process, so that the total is conserved ("@[]" has
		 * nothing to keep and is counted as empty by emit).
		 */
		for (i = 0; i < r->nel; i++)
			if (r->el[i].len == 0)
				break;
		if (i == r->nel) {
			r->stats.nostack++;
			return 0;
		}
	}
	/* items: scalars, then every frame of every stack, leaf first */
	for (i = 0; i < r->nel; i++) {
		el = &r->el[i];
		if (el->nf == 0 && el->len)
			addtext(r, r->txt + el->off, el->len, F_COMM);
	}
	first = r->nitem;
	for (i = 0; i < r->nel; i++) {
		el = &r->el[i];
		if (el->nf == 0)
			continue;
		n = r->nitem;
		kern = -1;
		for (j = 0; j < el->nf; j++) {
			f = &r->recs[el->f0 + j];
			additem_raw(r, f->raw);
			if (r->items[r->nitem - 1].kernel >= 0)
				kern = r->items[r->nitem - 1].kernel;
		}
		if (kern < 0) {
			kern = 0;
			for (j = n; j < r->nitem; j++)
				if (r->items[j].kname)
					kern = 1;
		}
		for (j = n; j < r->nitem; j++)
			r->items[j].kernel = kern;
	}
	order = fold_reallocarray(NULL, r->nitem + 1, sizeof *order);
	for (i = 0; i < first; i++)
		order[no++] = i;
	/* user stacks, then kernel ones; each root first */
	for (pass = 0; pass < 2; pass++) {
		size_t k = first;
		for (i = 0; i < r->nel; i++) {
			el = &r->el[i];
			if (el->nf == 0)
				continue;
			if (r->items[k].kernel == pass)
				for (j = el->nf; j > 0; j--)
					order[no++] = k + j - 1;
			k += el->nf;
		}
	}
	rc = emit(r, in, order, no, &c);
	free(order);
	return rc;
}

/* "]: N" ends a bpftrace key: finishes the entry with the glue before. */
static int
bt_line(struct bcc_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	const char *end = NULL, *p;
	size_t i;

	for (i = n; i >= 3; i--)
		if (s[i - 3] == ']' && s[i - 2] == ':' && s[i - 1] == ' ') {
			end = s + i - 3;
			break;
		}
	if (!end && n >= 2 && s[n - 2] == ']' && s[n - 1] == ':') {
		/* "@[...]:" then a histogram: not a count */
		r->state = SKIP;
		if (!r->want)
			return 0;
		return warn(diag, in, fold_in_lineno(in), "%s",
		    "map value is not a count (a histogram?): entry dropped");
	}
	if (!end) {
		glue(r, s, n);
		return 0;
	}
	glue(r, s, end - s);
	p = end + 3;
	while (p < s + n && fold_isspace(*p))
		p++;
	if (p == s + n) {
		/* "@[...]: " then a histogram: not a count */
		r->state = SKIP;
		if (!r->want)
			return 0;
		return warn(diag, in, fold_in_lineno(in), "%s",
		    "map value is not a count (a histogram?): entry dropped");
	}
	return bt_finish(r, in, p, s + n - p, diag);
}

/* "@name[..." or "@name: N". */
static int
bt_start(struct bcc_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	size_t i = 1, nl;

	while (i < n && s[i] != '[' && s[i] != ':')
		i++;
	nl = i - 1;
	r->want = !r->opt.map || (strlen(r->opt.map) == nl &&
	    memcmp(r->opt.map, s + 1, nl) == 0);
	bt_begin(r, fold_in_lineno(in));
	if (i < n && s[i] == ':') {	/* "@count: 12": no key */
		r->state = NONE;
		if (r->want)
			r->stats.nostack++;
		return 0;
	}
	if (i == n) {
		r->state = NONE;
		return warn(diag, in, fold_in_lineno(in), "%s",
		    "not a bpftrace map entry: line skipped");
	}
	return bt_line(r, in, s + i + 1, n - i - 1, diag);
}

static int
banner(const char *s, size_t n)
{
	static const char *const known[] = {
		"Tracing ", "Sampling ", "Attaching ", "Attached ",
		"Detaching", "Hit Ctrl-C", "^C", "ERROR", "Lost ",
		"Press Ctrl-C", "Ctrl-C", "Running ", "Profiling ",
	};
	size_t i, k;

	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		k = strlen(known[i]);
		if (n >= k && memcmp(s, known[i], k) == 0)
			return 1;
	}
	/* stackcount -T: "13:01:02" */
	if (n == 8 && s[2] == ':' && s[5] == ':')
		return 1;
	return 0;
}

static int
folded(struct bcc_reader *r, struct fold_in *in, const char *s, size_t n,
    struct fold_diag *diag)
{
	struct fold_count c;
	size_t slen;
	int k;

	k = fold_parse_line(s, n, &slen, &c, 1);
	if (k <= 0)
		return warn(diag, in, fold_in_lineno(in), "%s: line skipped",
		    fold_err());
	if (s[0] == ';' || s[slen - 1] == ';' || memmem(s, slen, ";;", 2))
		return warn(diag, in, fold_in_lineno(in), "%s",
		    "empty frame in a folded line: line skipped");
	if (fold_stacks_add_text(r->st, s, slen, &c) < 0)
		return fold_seterr_at(fold_in_name(in), fold_in_lineno(in),
		    "%s", fold_err()), -2;
	r->stats.folded++;
	return 0;
}

/* A line that is not indented, outside any entry. */
static int
toplevel(struct bcc_reader *r, struct fold_in *in, const char *s, size_t n,
    const char *raw, struct fold_diag *diag)
{
	if (s[0] == '@')
		return bt_start(r, in, s, raw - s, diag);
	if (n >= 8 && memcmp(s, "WARNING:", 8) == 0) {
		if (!r->stats.toolwarn[0])
			r->warnorigin = fold_in_origin(in);
		if (!r->stats.toolwarn[0])
			snprintf(r->stats.toolwarn, sizeof r->stats.toolwarn,
			    "%.*s", (int)(n > 200 ? 200 : n), s);
		return 0;
	}
	if (banner(s, n))
		return 0;
	if ((n > 0 && fold_isdigit(s[n - 1]) && memchr(s, ' ', n)) ||
	    memchr(s, ';', n))
		return folded(r, in, s, n, diag);
	return warn(diag, in, fold_in_lineno(in), "%s",
	    "not a stack, a count or a banner: line skipped");
}

static int
unterminated(struct bcc_reader *r, struct fold_in *in, struct fold_diag *diag)
{
	int st = r->state;

	r->state = NONE;
	if (st == BPFTRACE && !r->want)
		return 0;
	if (st != BLOCK && st != BPFTRACE)
		return 0;
	if (fold_warn(diag, fold_in_name(in), r->start,
	    "stack without a count: dropped") < 0)
		return -2;
	return 0;
}

static int
bcc_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct bcc_reader *r = rp;
	const char *line, *t, *e, *raw;
	size_t len, tn = 1;
	int rc, ind;

	r->state = NONE;
	while ((rc = fold_in_line(in, &line, &len)) > 0) {
		e = line + len;
		t = skipblank(line, e);
		/* bpftrace keys end their parts with ", ": keep the blank */
		raw = e;
		while (raw > t && raw[-1] == '\r')
			raw--;
		while (e > t && fold_isspace(e[-1]))
			e--;
		tn = e - t;
		ind = t - line;
		if (tn == 0) {
			if (r->state == SKIP) {
				r->state = NONE;
				continue;
			}
			if (r->state == BLOCK && unterminated(r, in, diag) < 0)
				return -2;
			continue;
		}
		switch (r->state) {
		case SKIP:	/* a histogram, up to a blank line or a map */
			if (ind > 0 || t[0] != '@')
				continue;
			r->state = NONE;
			break;
		case BPFTRACE:
			/*
			 * A stack's frames are indented; text between them
			 * goes on with ", " or ends the key with "]". Any
			 * other line is a frame whose indentation was lost
			 * (stripped by a log collector).
			 */
			if (ind > 0 || (t[0] != '@' && t[0] != ']' &&
			    t[0] != ',')) {
				struct elem *el = &r->el[r->nel - 1];
				if (el->nf == 0)
					el->f0 = r->nrec;
				else if (el->f0 + el->nf != r->nrec)
					/* frames after text: a new stack */
					el->f0 = r->nrec, el->nf = 0;
				addrec(r, t, tn, ind);
				el->nf++;
				continue;
			}
			if (t[0] == '@') {
				if (unterminated(r, in, diag) < 0)
					return -2;
				break;
			}
			if (bt_line(r, in, t, raw - t, diag) < 0)
				return -2;
			continue;
		case BLOCK:
			if (ind > 0) {
				if (countlike(t, tn)) {
					if (finish_block(r, in, t, tn, diag) < 0)
						return -2;
				} else
					addrec(r, t, tn, ind);
				continue;
			}
			if (unterminated(r, in, diag) < 0)
				return -2;
			break;
		}
		/* NONE */
		if (ind > 0) {
			if (countlike(t, tn)) {
				/* a count with no stack before it */
				struct fold_count c;
				if (fold_count_parse(t, tn, &c) == 0) {
					r->stats.empty++;
					if (fold_count_add(&r->stats.emptytotal,
					    &c) < 0)
						return fold_seterr_at(
						    fold_in_name(in),
						    fold_in_lineno(in), "%s",
						    fold_err()), -2;
				}
				continue;
			}
			r->state = BLOCK;
			r->start = fold_in_lineno(in);
			r->nrec = 0;
			r->tlen = 0;
			addrec(r, t, tn, ind);
			continue;
		}
		if (toplevel(r, in, t, tn, raw, diag) < 0)
			return -2;
	}
	if (rc < 0)
		return -1;
	/*
	 * A piece ends before a line "@..." (bcc_split), which ends any
	 * entry as the end of the input does, or after a blank line, which
	 * ends any but a bpftrace key: one then goes on in the next piece.
	 */
	if (r->inpart && tn == 0 && r->state == BPFTRACE)
		r->unsure = 1;
	if (unterminated(r, in, diag) < 0)
		return -2;
	return 0;
}

static int
bcc_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	const struct bcc_reader *r = rp;
	const struct bcc_stats *s = &r->stats;
	char msg[1024], buf[FOLD_COUNT_BUFSZ];

	if (s->toolwarn[0]) {
		snprintf(msg, sizeof msg, "the input says: %s", s->toolwarn);
		say(arg, msg);
	}
	if (s->empty) {
		fold_count_fmt(&s->emptytotal, buf);
		snprintf(msg, sizeof msg, "%llu entries with an empty stack "
		    "dropped (count %s)", (unsigned long long)s->empty, buf);
		say(arg, msg);
	}
	if (s->nostack) {
		snprintf(msg, sizeof msg, "%llu bpftrace entries without a stack "
		    "in their key dropped%s", (unsigned long long)s->nostack,
		    r->opt.map ? "" : " (choose a map with --map)");
		say(arg, msg);
	}
	return 0;
}

/* 1 when s[0..n) begins with the string lit. */
#define STARTS(s, n, lit) ((n) >= sizeof(lit) - 1 && \
	memcmp((s), (lit), sizeof(lit) - 1) == 0)

/*
 * FOLD_DETECT_SURE (2) when head[0..n) shows a form only these tools print:
 * a bpftrace map entry ("@name[" or "@name: "), their banners ("Tracing
 * ...", "Attaching N probes..."), python bytes frames (b'...'), the "-
 * comm (pid)", "--", "target:" or "waker:" lines of the multi-line form;
 * else 0 (bcc's -f output is folded stacks, read as such).
 */
static int
bcc_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *end = head + n, *s;
	size_t len, i;

	while (fold_head_line(&p, end, eof, &s, &len)) {
		if (len > 1 && s[0] == '@') {
			for (i = 1; i < len && fold_isident(s[i]);
			    i++)
				;
			if (i < len && (s[i] == '[' || (s[i] == ':' &&
			    i + 1 < len && s[i + 1] == ' ')))
				return 2;
			continue;
		}
		if (STARTS(s, len, "Tracing ") || STARTS(s, len, "Sampling at ") ||
		    (STARTS(s, len, "Attaching ") && len > 10 &&
		    fold_isdigit(s[10])))
			return 2;
		for (i = 0; i < len && fold_isblank(s[i]); i++)
			;
		if (i == 0)
			continue;
		s += i, len -= i;
		if (STARTS(s, len, "b'") || STARTS(s, len, "target:") ||
		    STARTS(s, len, "waker:") || (len == 2 && s[1] == '-' &&
		    s[0] == '-'))
			return 2;
		/* "-                swapper/1 (0)" */
		if (len > 4 && s[0] == '-' && fold_isblank(s[1]) &&
		    s[len - 1] == ')' && memchr(s, '(', len))
			return 2;
	}
	return 0;
}

/* entries of any form, dropped ones too: the summary says why */
static uint64_t
bcc_records(const void *r)
{
	const struct bcc_stats *s = bcc_reader_stats(r);

	return s->multiline + s->folded + s->bpftrace + s->empty + s->nostack;
}

#define OFF(field) offsetof(struct bcc_opt, field)

static const struct fold_option bcc_options[] = {
	{ .name = "kernel", .kind = FOLD_OPT_FLAG, .off = OFF(kernel),
	    .value = 1,
	    .help = "suffix kernel frames \"_[k]\"" },
	{ .name = "map", .arg = "NAME", .kind = FOLD_OPT_STRING,
	    .off = OFF(map), .reject = " \t\n[]:", .what = "a map name",
	    .help = "read only the bpftrace map NAME" },
	{ .name = "pid", .kind = FOLD_OPT_FLAG, .off = OFF(pid),
	    .value = 1,
	    .help = "name the root frame \"comm-PID\" (when shown)" },
	{ .name = NULL }
};

#undef OFF

static const struct bcc_opt bcc_defaults = BCC_OPT_INIT;

/*
 * A part may begin at a line "@..." (a bpftrace map entry, which ends
 * whatever was being read) or after an empty line (which ends any entry
 * but a bpftrace key: bcc_read and bcc_join tell).
 */
static size_t
bcc_split(const char *buf, size_t n)
{
	const char *p = buf, *e = buf + n, *nl;

	while ((nl = memchr(p, '\n', e - p)) != NULL && nl + 1 < e) {
		p = nl + 1;
		if (*p == '@')
			return p - buf;
		if (*p == '\n')
			return p + 1 - buf;
		if (*p == '\r' && p + 1 < e && p[1] == '\n')
			return p + 2 - buf;
	}
	return n;
}

static void *
bcc_part(void *rp, struct fold_stacks *st)
{
	const struct bcc_reader *r = rp;
	struct bcc_reader *p = bcc_open(&r->opt, st);

	p->opt.map = r->opt.map;	/* open took its '@' off */
	p->inpart = 1;
	return p;
}

static int
bcc_join(void *rp, void *const *pp, size_t n)
{
	struct bcc_reader *r = rp;
	struct bcc_stats *s = &r->stats;
	struct fold_count total = s->emptytotal;
	const struct bcc_reader *first = NULL;
	size_t k;

	/*
	 * An entry r has not ended would be ended by the next piece's
	 * first line, its warning said after theirs.
	 */
	if (r->state != NONE && r->state != SKIP)
		return 1;
	for (k = 0; k < n; k++) {
		const struct bcc_reader *p = pp[k];
		if (p->unsure || fold_count_add(&total,
		    &p->stats.emptytotal) < 0)
			return 1;	/* r says the overflow, as read whole */
		if (p->stats.toolwarn[0] && (!first ||
		    p->warnorigin < first->warnorigin))
			first = p;
	}
	for (k = 0; k < n; k++) {
		const struct bcc_stats *ps = &((const struct bcc_reader *)
		    pp[k])->stats;
		s->empty += ps->empty;
		s->nostack += ps->nostack;
		s->multiline += ps->multiline;
		s->folded += ps->folded;
		s->bpftrace += ps->bpftrace;
	}
	s->emptytotal = total;
	if (!s->toolwarn[0] && first)
		memcpy(s->toolwarn, first->stats.toolwarn, sizeof s->toolwarn);
	/*
	 * r reads the last piece next, as the last part left it: after an
	 * empty line, outside any entry (a key going on was refused above);
	 * or before a line "@...", whose start ends whatever was open (the
	 * part said it at its end).
	 */
	r->state = NONE;
	return 0;
}

const struct format_id bcc_id = {
	.name = "bcc",
	.tool = "stackcollapse-bcc",
	.what = "bcc, libbpf-tools and bpftrace stacks",
	.input = "bcc, libbpf-tools or bpftrace output",
	.detect = bcc_detect,
};

const struct format bcc_format = {
	.id = &bcc_id,
	.kind = FOLD_LINES,
	.one = "line or entry",
	.many = "lines or entries",
	.options = bcc_options,
	.optsize = sizeof(struct bcc_opt),
	.defaults = &bcc_defaults,
	.open = bcc_open,
	.read = bcc_read,
	.records = bcc_records,
	.finish = bcc_finish,
	.close = bcc_close,
	.split = bcc_split,
	.split_default = 1,
	.part = bcc_part,
	.join = bcc_join,
	.whole = 1,
};
