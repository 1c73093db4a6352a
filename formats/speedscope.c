#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "libfold/unit.h"
#include "formats/json.h"
#include "formats/speedscope.h"
#include "formats/tables.h"
#include "formats/table.h"

#define NONE UINT32_MAX
/* keys hold frame indices below this, and a profile's number from it */
#define PROFILE_BASE 0x80000000u
#define MAX_DEPTH 65536
/*
 * The largest value or sum kept (about 1.7e37, in 10^-9 of a unit): a
 * sum or difference of two such cannot pass json_fixed_t's 2^127.
 */
#define LIM ((json_fixed_t)(((unsigned __int128)1 << 126) / 5))

/* What a profile counts, from its unit. */
enum kind { K_UNSET, K_NONE, K_BYTES, K_TIME, K_BAD };

/* The keys read, at each depth. */
enum key { X_OTHER, X_SCHEMA, X_SHARED, X_PROFILES, X_FRAMES, X_TYPE,
    X_NAME, X_UNIT, X_END, X_EVENTS, X_SAMPLES, X_WEIGHTS };

struct speedscope_reader {
	struct speedscope_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	uint64_t seen;		/* inputs read that are speedscope files */
	const char *unit;	/* of the input just read (static) */
	size_t *matched;	/* by --profile: profiles of that name read */

	/* one input */
	const char *file;
	struct fold_diag *diag;
	struct json *json;
	int top, seen_profiles, seen_frames;
	int k1, k2, k3;		/* the key at depth 1, 2 and 3 */
	uint32_t *fid;		/* by frame index: its name, interned */
	size_t nframes, fidcap;
	enum kind inkind;	/* of the profiles read so far */
	/*
	 * The stacks, as frame indices (and with --profile-root a profile
	 * name id first), in a table of their own whose counts are unused:
	 * acc holds what the profile being read adds to each, in units of
	 * 10^-9 of its unit, and total what the profiles read added.
	 */
	struct fold_stacks *keys;
	json_fixed_t *acc;
	struct fold_count *total;
	size_t keycap;
	struct u32vec touched;	/* keys acc holds something for */
	struct u32vec names;	/* by profile: its name, interned */

	/* one profile */
	size_t pno;		/* its index in the file */
	uint64_t pline;		/* where it begins */
	int type;		/* 0 unset, 'e', 's', '?' */
	char *typename;
	enum kind kind;
	int scale;		/* K_TIME: the unit is 10^scale ns */
	char *pname;
	size_t pnamelen;
	int has_samples, has_weights, has_events;
	struct u32vec stack;	/* evented: the open frames; sampled: one */
	int stackbad;
	long cur;		/* evented: the key of stack, or -1 */
	json_fixed_t last;	/* evented: the value of the last event */
	int have_last;
	json_fixed_t end;	/* endValue */
	int have_end;
	size_t nevents, nsamples, nweights;
	struct u32vec sidx;	/* samples before weights: each one's key */
	json_fixed_t *w;	/* weights before samples */
	size_t wcap;
};

/* A counted warning about the input at line: 0, or -2 under --strict. */
#define warn(r, line, ...) \
	(fold_warn((r)->diag, (r)->file, (line), __VA_ARGS__) < 0 ? -2 : 0)

static void *
speedscope_open(const void *optp, struct fold_stacks *st)
{
	const struct speedscope_opt *opt = optp;
	struct speedscope_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->matched = fold_calloc(opt->nprofiles + 1, sizeof *r->matched);
	return r;
}

static void
reset_profile(struct speedscope_reader *r)
{
	r->type = 0;
	free(r->typename);
	r->typename = NULL;
	r->kind = K_UNSET;
	r->scale = 0;
	free(r->pname);
	r->pname = NULL;
	r->pnamelen = 0;
	r->has_samples = r->has_weights = r->has_events = 0;
	r->stack.n = 0;
	r->stackbad = 0;
	r->cur = -1;
	r->have_last = r->have_end = 0;
	r->nevents = r->nsamples = r->nweights = 0;
	r->sidx.n = 0;
}

static void
speedscope_close(void *rp)
{
	struct speedscope_reader *r = rp;

	if (!r)
		return;
	reset_profile(r);
	fold_stacks_free(r->keys);
	free(r->acc);
	free(r->total);
	free(r->touched.v);
	free(r->names.v);
	free(r->fid);
	free(r->stack.v);
	free(r->sidx.v);
	free(r->w);
	free(r->matched);
	json_free(r->json);
	free(r);
}

/* The key of the stack ids[0..n) of this profile, or -1 with a message. */
static long
key(struct speedscope_reader *r, const uint32_t *ids, size_t n)
{
	static const struct fold_count zero = FOLD_COUNT_INIT;
	uint32_t buf[1 + 64], *k = buf;
	long i;
	size_t nk = n + 1;

	/* the profile first: a key is never empty */
	if (nk > sizeof buf / sizeof buf[0])
		k = fold_reallocarray(NULL, nk, sizeof *k);
	k[0] = PROFILE_BASE + (uint32_t)r->pno;
	if (n)
		memcpy(k + 1, ids, n * sizeof *ids);
	i = fold_stacks_add(r->keys, k, nk, &zero);
	if (k != buf)
		free(k);
	if (i < 0)
		return -1;
	if ((size_t)i >= r->keycap) {
		size_t old = r->keycap;
		r->acc = fold_grow(r->acc, &r->keycap, (size_t)i + 1,
		    sizeof *r->acc);
		r->total = fold_reallocarray(r->total, r->keycap,
		    sizeof *r->total);
		memset(r->acc + old, 0, (r->keycap - old) * sizeof *r->acc);
		memset(r->total + old, 0, (r->keycap - old) *
		    sizeof *r->total);
	}
	return i;
}

/* Adds v (10^-9 of the profile's unit) to key k. */
static int
add(struct speedscope_reader *r, long k, json_fixed_t v)
{
	if (v == 0)
		return 0;
	if (r->acc[k] == 0)
		u32vec_push(&r->touched, (uint32_t)k);
	r->acc[k] += v;
	if (r->acc[k] > LIM)
		return fold_seterr_at(r->file, json_line(r->json), "profile "
		    "%zu: a stack's weight is out of range", r->pno), -2;
	return 0;
}

/* A number of the profile, as 10^-9 of its unit; 0 when not one. */
static int
fixed(const char *s, size_t n, json_fixed_t *v)
{
	return json_fixed(s, n, 9, v) && *v <= LIM && *v >= -LIM;
}

static int
number(const struct json_event *e, json_fixed_t *v)
{
	return e->type == JSON_NUMBER && fixed(e->s, e->n, v);
}

/* shared.frames[i], whole. */
static int
frame(struct speedscope_reader *r, struct json *j, const struct json_val *v,
    uint64_t line)
{
	const struct json_val *nm = NULL, *file, *ln;
	const char *name = "[unknown]", *f = NULL;
	size_t n = 9, fl = 0, len;
	char num[32], *s;
	int nl = 0;
	int64_t l;

	if (json_type(v) == JSON_OBJECT)
		nm = json_member(j, v, "name");
	if (!nm || json_type(nm) != JSON_STRING) {
		if (warn(r, line, "frames[%zu] has no name: called [unknown]",
		    r->nframes) < 0)
			return -2;
	} else if ((name = json_text(j, nm, &n)), n == 0) {
		name = "[unknown]";
		n = 9;
	}
	if (r->opt.lines && nm) {
		file = json_member(j, v, "file");
		ln = json_member(j, v, "line");
		if (file && json_type(file) == JSON_STRING)
			f = json_text(j, file, &fl);
		if (fl && json_val_int64(j, ln, &l))
			nl = snprintf(num, sizeof num, ":%lld", (long long)l);
	}
	len = n + (fl ? 1 + fl + nl : 0);
	s = fold_reallocarray(NULL, len ? len : 1, 1);
	memcpy(s, name, n);
	if (fl) {
		s[n] = ' ';
		memcpy(s + n + 1, f, fl);
		memcpy(s + n + 1 + fl, num, nl);
	}
	fold_frame_clean(s, len);
	if (r->nframes == r->fidcap)
		r->fid = fold_grow(r->fid, &r->fidcap, r->nframes + 1,
		    sizeof *r->fid);
	r->fid[r->nframes++] = fold_intern(r->frames, s, len);
	free(s);
	return 0;
}

/* The frame index of an event or a sample, or -1 when it is not one. */
static long
frameindex(const char *s, size_t n)
{
	int64_t x;

	if (!json_int64(s, n, &x) || x < 0 || x >= PROFILE_BASE)
		return -1;
	return (long)x;
}

/* Credits the open stack with the time to at. */
static int
advance(struct speedscope_reader *r, json_fixed_t at, size_t i)
{
	if (r->have_last && at < r->last) {
		if (warn(r, json_line(r->json), "profile %zu: events[%zu] is "
		    "earlier than the event before it: taken as at the same "
		    "time", r->pno, i) < 0)
			return -2;
		at = r->last;
	}
	if (r->have_last && at > r->last && r->stack.n > 0) {
		if (r->cur < 0 && (r->cur = key(r, r->stack.v,
		    r->stack.n)) < 0)
			return fold_seterr("%s: %s", r->file, fold_err()), -2;
		if (add(r, r->cur, at - r->last) < 0)
			return -2;
	}
	r->last = at;
	r->have_last = 1;
	return 0;
}

/* events[i], whole. */
static int
event(struct speedscope_reader *r, struct json *j, const struct json_val *v,
    uint64_t line)
{
	const struct json_val *t, *f, *at;
	const char *ts = "", *s = NULL;
	size_t tn = 0, n = 0, k;
	long fr = -1;
	json_fixed_t when;
	int rc;

	r->nevents++;
	if (json_type(v) != JSON_OBJECT)
		return warn(r, line, "profile %zu: events[%zu] is not an "
		    "object: ignored", r->pno, r->nevents - 1);
	t = json_member(j, v, "type");
	f = json_member(j, v, "frame");
	at = json_member(j, v, "at");
	if (t && json_type(t) == JSON_STRING)
		ts = json_text(j, t, &tn);
	if (f && json_type(f) == JSON_NUMBER) {
		s = json_text(j, f, &n);
		fr = frameindex(s, n);
	}
	if (at && json_type(at) == JSON_NUMBER)
		s = json_text(j, at, &n);
	if (tn != 1 || (*ts != 'O' && *ts != 'C') || fr < 0 || !at ||
	    json_type(at) != JSON_NUMBER || !fixed(s, n, &when))
		return warn(r, line, "profile %zu: events[%zu] is not an "
		    "event of type \"O\" or \"C\" with a frame index and a "
		    "value \"at\": ignored", r->pno, r->nevents - 1);
	if ((rc = advance(r, when, r->nevents - 1)) < 0)
		return rc;
	if (*ts == 'O') {
		if (r->stack.n >= MAX_DEPTH)
			return warn(r, line, "profile %zu: events[%zu] opens "
			    "a frame on %d open: ignored", r->pno,
			    r->nevents - 1, MAX_DEPTH);
		u32vec_push(&r->stack, (uint32_t)fr);
		r->cur = -1;
		return 0;
	}
	for (k = r->stack.n; k > 0 && r->stack.v[k - 1] != (uint32_t)fr; k--)
		;
	if (k == 0)
		return warn(r, line, "profile %zu: events[%zu] closes frame "
		    "%ld, which is not open: ignored", r->pno, r->nevents - 1,
		    fr);
	if (k != r->stack.n && warn(r, line, "profile %zu: events[%zu] "
	    "closes frame %ld with %zu frame%s open above it: closed too",
	    r->pno, r->nevents - 1, fr, r->stack.n - k,
	    r->stack.n - k == 1 ? "" : "s") < 0)
		return -2;
	r->stack.n = k - 1;
	r->cur = -1;
	return 0;
}

/* Credits sample i (key k, or -1: a bad one) with weight w. */
static int
credit(struct speedscope_reader *r, long k, json_fixed_t w, size_t i)
{
	if (w < 0)
		return warn(r, json_line(r->json), "profile %zu: weights[%zu] "
		    "is negative: sample dropped", r->pno, i);
	return k < 0 ? 0 : add(r, k, w);
}

/* The end of samples[i]: the stack in r->stack. */
static int
sample_end(struct speedscope_reader *r)
{
	size_t i = r->nsamples++;
	long k = -1;

	if (r->stackbad) {
		if (warn(r, json_line(r->json), "profile %zu: samples[%zu] "
		    "holds what is not a frame index, or more than 65536: "
		    "sample dropped",
		    r->pno, i) < 0)
			return -2;
	} else if ((k = key(r, r->stack.v, r->stack.n)) < 0)
		return fold_seterr("%s: %s", r->file, fold_err()), -2;
	r->stack.n = 0;
	r->stackbad = 0;
	if (i < r->nweights)
		return credit(r, k, r->w[i], i);
	if (r->has_weights)
		return 0;	/* more samples than weights: see finish */
	u32vec_push(&r->sidx, k < 0 ? NONE : (uint32_t)k);
	return 0;
}

static int
weight(struct speedscope_reader *r, const struct json_event *e)
{
	size_t i = r->nweights++;
	json_fixed_t w;

	if (!number(e, &w)) {
		w = 0;
		if (warn(r, json_line(r->json), "profile %zu: weights[%zu] is "
		    "not a number: sample dropped", r->pno, i) < 0)
			return -2;
	}
	if (i < r->sidx.n)
		return credit(r, r->sidx.v[i] == NONE ? -1 :
		    (long)r->sidx.v[i], w, i);
	if (r->has_samples)
		return 0;
	if (i == r->wcap)
		r->w = fold_grow(r->w, &r->wcap, i + 1, sizeof *r->w);
	r->w[i] = w;
	return 0;
}

/* Takes back what the profile being read added. */
static void
discard(struct speedscope_reader *r)
{
	size_t i;

	for (i = 0; i < r->touched.n; i++)
		r->acc[r->touched.v[i]] = 0;
	r->touched.n = 0;
}

static int
selected(struct speedscope_reader *r)
{
	size_t i;
	int any = 0;

	if (r->opt.nprofiles == 0)
		return 1;
	for (i = 0; i < r->opt.nprofiles; i++)
		if (r->pname && strlen(r->opt.profiles[i]) == r->pnamelen &&
		    memcmp(r->opt.profiles[i], r->pname, r->pnamelen) == 0) {
			r->matched[i]++;
			any = 1;
		}
	return any;
}

static const char *
kindname(enum kind k)
{
	return k == K_NONE ? "samples" : k == K_BYTES ? "bytes" :
	    "nanoseconds";
}

/* Why the profile that ends is skipped, into buf; NULL when it is not. */
static const char *
skipped(struct speedscope_reader *r, char *buf, size_t size)
{
	if (r->type == '?')
		snprintf(buf, size, "its type \"%s\" is not \"sampled\" nor "
		    "\"evented\"", r->typename);
	else if (r->kind == K_BAD)
		snprintf(buf, size, "its unit is not one speedscope defines");
	else if (r->has_samples && r->nsamples != r->nweights)
		snprintf(buf, size, "it has %zu sample%s and %zu weight%s",
		    r->nsamples, r->nsamples == 1 ? "" : "s", r->nweights,
		    r->nweights == 1 ? "" : "s");
	else
		return NULL;
	return buf;
}

/*
 * What the profile that ends added, in 10^-9 of its unit, into the
 * totals of its stacks: nanoseconds (rounded) for a time, else whole
 * units where they are, fractions where not.
 */
static int
profile_take(struct speedscope_reader *r)
{
	int shift = r->kind == K_TIME ? r->scale - 9 : -9;
	json_fixed_t a, p = 1, q, rem;
	struct fold_count c;
	size_t i;

	for (i = 0; i < (size_t)-shift; i++)
		p *= 10;
	for (i = 0; i < r->touched.n; i++) {
		uint32_t k = r->touched.v[i];
		a = r->acc[k];
		q = a / p;
		rem = a % p;
		if (r->kind == K_TIME || rem == 0) {
			q += rem >= p - rem && rem != 0;
			if (q > UINT64_MAX)
				return fold_seterr("%s: profile %zu: a stack's "
				    "weight is out of range", r->file,
				    r->pno), -2;
			c = fold_count_u64((uint64_t)q);
		} else
			c = fold_count_double((double)a / 1e9);
		if (fold_count_add(&r->total[k], &c) < 0)
			return fold_seterr("%s: %s", r->file, fold_err()), -2;
	}
	return 0;
}

/*
 * An evented profile that ends with frames open: they ran to its end,
 * endValue, or when that is missing or earlier, stopped at the last
 * event.
 */
static int
close_open(struct speedscope_reader *r)
{
	int at_end = r->have_end && r->have_last && r->end > r->last;
	size_t n = r->stack.n;

	if (warn(r, r->pline, "profile %zu ends with %zu frame%s open: "
	    "closed at its %s", r->pno, n, n == 1 ? "" : "s", at_end ?
	    "endValue" : "last event") < 0)
		return -2;
	return at_end ? advance(r, r->end, r->nevents) : 0;
}

/* Done with profiles[pno]: on to the next. */
static void
next_profile(struct speedscope_reader *r)
{
	char buf[40];

	discard(r);
	/* a profile without a name is called by its place */
	if (r->opt.profile_root && r->pnamelen) {
		fold_frame_clean(r->pname, r->pnamelen);
		u32vec_push(&r->names, fold_intern(r->frames, r->pname,
		    r->pnamelen));
	} else if (r->opt.profile_root)
		u32vec_push(&r->names, fold_intern(r->frames, buf,
		    snprintf(buf, sizeof buf, "profile %zu", r->pno)));
	r->pno++;
	reset_profile(r);
}

/* The end of a profile. */
static int
profile_end(struct speedscope_reader *r)
{
	char buf[160];
	const char *why = skipped(r, buf, sizeof buf);
	int rc = 0;

	if (!selected(r))
		;
	else if (why)
		rc = warn(r, r->pline, "profile %zu is skipped: %s", r->pno,
		    why);
	else if (r->kind == K_UNSET && (rc = warn(r, r->pline, "profile %zu "
	    "has no unit: its weights are taken as samples", r->pno)) < 0)
		;
	else if (r->kind = r->kind == K_UNSET ? K_NONE : r->kind,
	    r->inkind != K_UNSET && r->kind != r->inkind)
		rc = warn(r, r->pline, "profile %zu is skipped: it counts %s, "
		    "and an earlier one %s (choose with --profile)", r->pno,
		    kindname(r->kind), kindname(r->inkind));
	else if (r->stack.n > 0 && (rc = close_open(r)) < 0)
		;
	else if ((rc = profile_take(r)) == 0)
		r->inkind = r->kind;
	next_profile(r);
	return rc;
}

static enum key
keyof(int depth, const char *s, size_t n)
{
	static const struct {
		int depth;
		const char *s;
		enum key k;
	} keys[] = {
		{ 1, "$schema", X_SCHEMA }, { 1, "shared", X_SHARED },
		{ 1, "profiles", X_PROFILES }, { 2, "frames", X_FRAMES },
		{ 3, "type", X_TYPE }, { 3, "name", X_NAME },
		{ 3, "unit", X_UNIT }, { 3, "endValue", X_END },
		{ 3, "events", X_EVENTS },
		{ 3, "samples", X_SAMPLES }, { 3, "weights", X_WEIGHTS },
	};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (keys[i].depth == depth && strlen(keys[i].s) == n &&
		    memcmp(keys[i].s, s, n) == 0)
			return keys[i].k;
	return X_OTHER;
}

/* A value of the profile object's keys, at depth 3. */
static int
profile_value(struct speedscope_reader *r, struct json *j,
    const struct json_event *e)
{
	static const struct {
		const char *name;
		enum kind kind;
		int scale;
	} units[] = {
		{ "none", K_NONE, 0 }, { "bytes", K_BYTES, 0 },
		{ "nanoseconds", K_TIME, 0 }, { "microseconds", K_TIME, 3 },
		{ "milliseconds", K_TIME, 6 }, { "seconds", K_TIME, 9 },
	};
	int start = e->type == JSON_OBJECT || e->type == JSON_ARRAY, *seen;
	size_t i;

	switch (r->k3) {
	case X_TYPE:
		if (e->type != JSON_STRING)
			break;
		r->type = e->n == 7 && memcmp(e->s, "sampled", 7) == 0 ? 's' :
		    e->n == 7 && memcmp(e->s, "evented", 7) == 0 ? 'e' : '?';
		free(r->typename);
		r->typename = fold_strndup(e->s, e->n > 40 ? 40 : e->n);
		return 0;
	case X_NAME:
		if (e->type != JSON_STRING)
			break;
		free(r->pname);
		r->pname = fold_strndup(e->s, e->n);
		r->pnamelen = e->n;
		return 0;
	case X_UNIT:
		r->kind = K_BAD;
		for (i = 0; e->type == JSON_STRING &&
		    i < sizeof units / sizeof units[0]; i++)
			if (strlen(units[i].name) == e->n &&
			    memcmp(units[i].name, e->s, e->n) == 0) {
				r->kind = units[i].kind;
				r->scale = units[i].scale;
			}
		return start ? JSON_SKIP : 0;
	case X_END:
		r->have_end = number(e, &r->end);
		break;
	case X_EVENTS:
	case X_SAMPLES:
	case X_WEIGHTS:
		if (e->type != JSON_ARRAY) {
			if (warn(r, json_line(j), "profile %zu: \"%s\" is not "
			    "an array: ignored", r->pno, r->k3 == X_EVENTS ?
			    "events" : r->k3 == X_SAMPLES ? "samples" :
			    "weights") < 0)
				return -2;
			break;
		}
		seen = r->k3 == X_EVENTS ? &r->has_events : r->k3 ==
		    X_SAMPLES ? &r->has_samples : &r->has_weights;
		if (*seen)
			return warn(r, json_line(j), "profile %zu: \"%s\" "
			    "given twice: the second is ignored", r->pno,
			    r->k3 == X_EVENTS ? "events" : r->k3 == X_SAMPLES ?
			    "samples" : "weights") < 0 ? -2 : JSON_SKIP;
		*seen = 1;
		return 0;
	default:
		break;
	}
	return start ? JSON_SKIP : 0;
}

/* Each event of the input (json.h). */
static int
on(void *ctx, struct json *j, const struct json_event *e)
{
	struct speedscope_reader *r = ctx;
	int start = e->type == JSON_OBJECT || e->type == JSON_ARRAY;
	int rc;

	switch (e->depth) {
	case 0:
		if (e->type == JSON_END)
			return 0;
		if (e->type != JSON_OBJECT)
			return json_fail(j, "not a speedscope file: a JSON "
			    "object expected");
		r->top = 1;
		return 0;
	case 1:
		if (e->type == JSON_KEY) {
			r->k1 = keyof(1, e->s, e->n);
			if (r->k1 == X_PROFILES && r->seen_profiles)
				return json_fail(j, "\"profiles\" given twice");
			if (r->k1 == X_SHARED && r->seen_frames)
				return json_fail(j, "\"shared\" given twice");
			return 0;
		}
		if (e->type == JSON_END)
			return 0;
		if (r->k1 == X_PROFILES && e->type == JSON_ARRAY) {
			r->seen_profiles = 1;
			return 0;
		}
		if (r->k1 == X_SHARED && e->type == JSON_OBJECT)
			return 0;
		if (r->k1 == X_PROFILES || r->k1 == X_SHARED)
			return json_fail(j, "not a speedscope file: \"%s\" is "
			    "not an %s", r->k1 == X_PROFILES ? "profiles" :
			    "shared", r->k1 == X_PROFILES ? "array" :
			    "object");
		return start ? JSON_SKIP : 0;
	case 2:
		if (r->k1 == X_SHARED) {
			if (e->type == JSON_KEY) {
				r->k2 = keyof(2, e->s, e->n);
				return 0;
			}
			if (e->type == JSON_END)
				return 0;
			if (r->k2 == X_FRAMES && e->type == JSON_ARRAY) {
				r->seen_frames = 1;
				return 0;
			}
			if (r->k2 == X_FRAMES)
				return json_fail(j, "not a speedscope file: "
				    "\"frames\" is not an array");
			return start ? JSON_SKIP : 0;
		}
		/* profiles[pno] */
		if (e->type == JSON_END)
			return profile_end(r);
		if (e->type != JSON_OBJECT) {
			if (warn(r, json_line(j), "profiles[%zu] is not an "
			    "object: skipped", r->pno) < 0)
				return -2;
			reset_profile(r);
			next_profile(r);
			return start ? JSON_SKIP : 0;
		}
		reset_profile(r);
		r->pline = json_line(j);
		r->k3 = X_OTHER;
		return 0;
	case 3:
		if (r->k1 == X_SHARED) {
			if (e->type == JSON_VALUE)
				return frame(r, j, e->v, e->line);
			return JSON_CAPTURE;
		}
		if (e->type == JSON_KEY) {
			r->k3 = keyof(3, e->s, e->n);
			return 0;
		}
		if (e->type == JSON_END)
			return 0;
		return profile_value(r, j, e);
	case 4:
		if (r->k3 == X_EVENTS) {
			if (e->type == JSON_VALUE)
				return event(r, j, e->v, e->line);
			return JSON_CAPTURE;
		}
		if (r->k3 == X_WEIGHTS)
			return (rc = weight(r, e)) < 0 ? rc :
			    start ? JSON_SKIP : 0;
		/* samples[i] */
		if (e->type == JSON_END)
			return sample_end(r);
		if (e->type == JSON_ARRAY) {
			r->stack.n = 0;
			r->stackbad = 0;
			return 0;
		}
		r->stackbad = 1;
		if ((rc = sample_end(r)) < 0)
			return rc;
		return start ? JSON_SKIP : 0;
	case 5: {
		long fr = e->type == JSON_NUMBER ? frameindex(e->s, e->n) : -1;
		if (fr < 0 || r->stack.n >= MAX_DEPTH)
			r->stackbad = 1;
		else
			u32vec_push(&r->stack, (uint32_t)fr);
		return start ? JSON_SKIP : 0;
	}
	default:
		return start ? JSON_SKIP : 0;
	}
}

/* The end of the input: its stacks, named, into st. */
static int
resolve(struct speedscope_reader *r)
{
	size_t i, k, n, len = fold_stacks_len(r->keys);
	const uint32_t *ids;
	uint32_t *out = NULL, bad;
	size_t outcap = 0;
	int rc = 0, root;

	for (i = 0; i < len && rc == 0; i++) {
		if (fold_count_iszero(&r->total[i]))
			continue;
		/* the profile's number, then frame indices */
		ids = fold_stacks_ids(r->keys, i, &n);
		out = fold_grow(out, &outcap, n, sizeof *out);
		bad = NONE;
		for (k = 1; k < n; k++) {
			if (ids[k] < r->nframes)
				out[k] = r->fid[ids[k]];
			else
				bad = ids[k];
		}
		root = r->opt.profile_root != 0;
		if (root)
			out[0] = r->names.v[ids[0] - PROFILE_BASE];
		if (bad != NONE)
			rc = warn(r, 0, "profile %u: a stack names frame %u, "
			    "and shared.frames has %zu: its weight is dropped",
			    ids[0] - PROFILE_BASE, bad, r->nframes);
		else if (n == 1)
			rc = warn(r, 0, "profile %u: samples with no frame: "
			    "their weight is dropped (a folded stack has a "
			    "frame)", ids[0] - PROFILE_BASE);
		else if (fold_stacks_add(r->st, out + 1 - root, n - 1 + root,
		    &r->total[i]) < 0)
			rc = (fold_seterr("%s: %s", r->file, fold_err()), -2);
	}
	free(out);
	return rc;
}

static int
speedscope_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct speedscope_reader *r = rp;
	int rc;

	r->file = fold_in_name(in);
	if (json_begin(in, r->opt.max_size ? r->opt.max_size :
	    SPEEDSCOPE_MAX_SIZE, "{", "a speedscope file") < 0)
		return -1;
	r->diag = diag;
	r->top = r->seen_profiles = r->seen_frames = 0;
	r->k1 = r->k2 = r->k3 = X_OTHER;
	r->nframes = 0;
	r->inkind = K_UNSET;
	r->pno = 0;
	r->names.n = 0;
	r->touched.n = 0;
	reset_profile(r);
	fold_stacks_free(r->keys);
	r->keys = fold_stacks_new(r->frames, 1);
	if (r->keycap) {
		memset(r->acc, 0, r->keycap * sizeof *r->acc);
		memset(r->total, 0, r->keycap * sizeof *r->total);
	}
	r->unit = NULL;
	if (!r->json)
		r->json = json_new(on, r);
	rc = json_read(r->json, in);
	if (rc == 0 && !r->top)
		rc = fold_seterr_at(r->file, 1, "not a speedscope file: a JSON "
		    "object expected");
	if (rc == 0 && !r->seen_profiles)
		rc = fold_seterr("%s: not a speedscope file: no \"profiles\" "
		    "array", r->file);
	if (rc == 0)
		rc = resolve(r);
	if (rc == 0)
		r->seen++;
	if (rc == 0 && r->inkind != K_UNSET && r->inkind != K_NONE)
		r->unit = kindname(r->inkind);
	return rc;
}

static const char *
speedscope_unit(const void *rp)
{
	return ((const struct speedscope_reader *)rp)->unit;
}

/* a speedscope file, even of no profile read: the summary says so */
static uint64_t
speedscope_records(const void *rp)
{
	return ((const struct speedscope_reader *)rp)->seen;
}

static int
speedscope_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct speedscope_reader *r = rp;
	char msg[512];
	size_t i;
	int rc = 0;

	for (i = 0; ok && i < r->opt.nprofiles; i++)
		if (!r->matched[i]) {
			snprintf(msg, sizeof msg, "no profile named \"%s\"",
			    r->opt.profiles[i]);
			say(arg, msg);
			rc = -1;
		}
	return rc;
}

#define OFF(field) offsetof(struct speedscope_opt, field)

static const struct fold_option speedscope_options[] = {
	{ .name = "lines", .kind = FOLD_OPT_FLAG, .off = OFF(lines),
	    .value = 1,
	    .help = "frames \"name file:line\" where a file is known" },
	{ .name = "max-size", .arg = "BYTES", .kind = FOLD_OPT_SIZE,
	    .off = OFF(max_size),
	    .help = "refuse an input larger than BYTES (K, M, G, T)" },
	{ .name = "profile", .arg = "NAME", .kind = FOLD_OPT_LIST,
	    .off = OFF(profiles), .countoff = OFF(nprofiles),
	    .help = "read the profiles named NAME only (repeatable)" },
	{ .name = "profile-root", .kind = FOLD_OPT_FLAG,
	    .off = OFF(profile_root), .value = 1,
	    .help = "put each stack under its profile's name" },
	{ .name = NULL }
};

#undef OFF

static const struct speedscope_opt speedscope_defaults = SPEEDSCOPE_OPT_INIT;

const struct format speedscope_format = {
	.id = &speedscope_id,
	.kind = FOLD_DOCUMENT,
	.one = "entry",
	.many = "entries",
	.options = speedscope_options,
	.optsize = sizeof(struct speedscope_opt),
	.defaults = &speedscope_defaults,
	.open = speedscope_open,
	.read = speedscope_read,
	.unit = speedscope_unit,
	.records = speedscope_records,
	.finish = speedscope_finish,
	.close = speedscope_close,
};

int
speedscope_write(struct fold_out *out, struct fold_stacks *st,
    const char *name)
{
	struct fold_intern *fr = fold_stacks_frames(st);
	size_t nf = fold_intern_count(fr), i, k, n, len, sl, next = 0;
	uint32_t *index = fold_reallocarray(NULL, nf ? nf : 1, sizeof *index);
	const char *unit = fold_stacks_unit(st), *s;
	const uint32_t *ids;
	struct fold_count total;
	int kind;

	if (fold_stacks_total(st, 0, &total) < 0) {
		free(index);
		return -1;
	}
	/* speedscope's units are ours of time and size; others are counts */
	if (fold_unit_scale(unit, &kind) == 0)
		unit = "none";
	fold_stacks_sort(st, FOLD_ORDER_TEXT);
	len = fold_stacks_len(st);
	for (i = 0; i < nf; i++)
		index[i] = NONE;
	fold_out_puts(out, "{\"$schema\":\"https://www.speedscope.app/"
	    "file-format-schema.json\",\"exporter\":\"folded2speedscope\","
	    "\"name\":");
	fold_name_write(out, name, strlen(name), FOLD_FORMAT_JSON);
	fold_out_puts(out, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
	/* frames in the order the sorted stacks first name them */
	for (i = 0; i < len; i++) {
		ids = fold_stacks_ids(st, i, &n);
		for (k = 0; k < n; k++) {
			if (index[ids[k]] != NONE)
				continue;
			index[ids[k]] = (uint32_t)next;
			fold_out_puts(out, next++ ? ",\n{\"name\":" :
			    "\n{\"name\":");
			s = fold_intern_str(fr, ids[k], &sl);
			fold_name_write(out, s, sl, FOLD_FORMAT_JSON);
			fold_out_putc(out, '}');
		}
	}
	fold_out_puts(out, "]},\n\"profiles\":[{\"type\":\"sampled\",\"name\":");
	fold_name_write(out, name, strlen(name), FOLD_FORMAT_JSON);
	fold_out_printf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":",
	    unit);
	fold_out_count(out, &total);
	fold_out_puts(out, ",\n\"samples\":[");
	for (i = 0; i < len; i++) {
		ids = fold_stacks_ids(st, i, &n);
		fold_out_puts(out, i ? ",\n[" : "\n[");
		for (k = 0; k < n; k++)
			fold_out_printf(out, k ? ",%u" : "%u", index[ids[k]]);
		fold_out_putc(out, ']');
	}
	fold_out_puts(out, "],\n\"weights\":[");
	for (i = 0; i < len; i++) {
		if (i)
			fold_out_putc(out, ',');
		fold_out_count(out, fold_stacks_counts(st, i));
	}
	fold_out_puts(out, "]}]}\n");
	free(index);
	return 0;
}
