#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "formats/chrome.h"
#include "formats/json.h"
#include "formats/trace.h"

#define NONE UINT32_MAX
#define MAX_DEPTH 65536

/* A duration event, as kept until its thread is folded. */
struct dur {
	int64_t ts;		/* nanoseconds */
	int64_t end;		/* X: ts + dur; B, E: unused */
	uint32_t name;		/* interned; E: NONE when it names none */
	uint32_t seq;		/* order in the file */
	char ph;		/* 'X', 'B', 'E' */
};

struct thread {
	uint32_t pid, tid;	/* their text, interned in keys */
	uint32_t name;		/* thread_name, or NONE */
	struct dur *d;
	size_t n, cap;
};

struct sframe {
	uint32_t name;		/* interned */
	uint32_t parent;	/* "\x03id" key, or NONE */
	int root;		/* "[root]" or "(root)" with no parent */
};

struct oldsample {
	uint32_t thread;	/* index */
	uint32_t frame;		/* "\x03id" key */
	uint64_t weight;
};

struct profile {
	uint32_t pid, tid;	/* tid: the Profile event's, or NONE */
	struct chrome_reader *r;
	uint64_t samples;
};

struct trace_reader {
	struct trace_opt opt;
	struct chrome_opt copt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	uint64_t events;	/* recognised, over every input */
	const char *unit;

	/* one input */
	const char *file;
	struct fold_diag *diag;
	struct json *json;
	int top, array;		/* the input is an array of events */
	int in, next;		/* IN_*: what is read; the next key's value */
	int seen_events;
	/* "stackFrames" and "samples" of old chrome://tracing files */
	uint32_t sfkey;		/* the key of the frame being read */
	struct sframe *sframes;
	uint32_t *sframe_of;	/* "\x03id" key -> index + 1 */
	size_t nsframes, sframecap, sframe_ofcap;
	struct oldsample *oldsamples;	/* by thread and frame */
	uint32_t *oldsample_of;
	size_t noldsamples, oldsamplecap, oldsample_ofcap;
	uint64_t nold;		/* samples of the input */
	struct fold_intern *keys;	/* pid and tid texts; "pid/id" */
	struct thread *threads;	/* by "pid\ttid" key */
	uint32_t *thread_of;	/* key -> thread index + 1, or 0 */
	size_t nthreads, threadcap, thread_ofcap;
	struct profile *profiles;
	uint32_t *profile_of;	/* "pid\tid" key -> index + 1 */
	size_t nprofiles, profilecap, profile_ofcap;
	uint32_t seq;
	int64_t last;		/* the latest time of the trace */
	uint64_t samples;	/* of the profiles folded, over every input */
	uint64_t dropped;	/* of those, dropped with a warning */
	uint64_t unended;	/* B events never ended */
	uint64_t badnest;	/* X events that overlap without nesting */
	char *buf;
	size_t bufcap;
};

/* A counted warning about the input at line: 0, or -2 under --strict. */
#define warn(r, line, ...) \
	(fold_warn((r)->diag, (r)->file, (line), __VA_ARGS__) < 0 ? -2 : 0)

static void *
trace_open(const void *optp, struct fold_stacks *st)
{
	const struct trace_opt *opt = optp;
	struct trace_reader *r = fold_calloc(1, sizeof *r);

	r->opt = *opt;
	r->copt.time = opt->time;
	r->copt.lines = opt->lines;
	r->copt.no_jit = opt->no_jit;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	return r;
}

/* Forgets the input read: its threads and profiles. */
static void
reset(struct trace_reader *r)
{
	size_t i;

	for (i = 0; i < r->nthreads; i++)
		free(r->threads[i].d);
	for (i = 0; i < r->nprofiles; i++)
		chrome_embed_free(r->profiles[i].r);
	r->nthreads = r->nprofiles = 0;
	fold_intern_free(r->keys);
	r->keys = NULL;
}

static void
trace_close(void *rp)
{
	struct trace_reader *r = rp;

	if (!r)
		return;
	reset(r);
	free(r->threads);
	free(r->thread_of);
	free(r->profiles);
	free(r->profile_of);
	free(r->sframes);
	free(r->sframe_of);
	free(r->oldsamples);
	free(r->oldsample_of);
	free(r->buf);
	json_free(r->json);
	free(r);
}

/* The key of a text, with a table from keys to something grown to it. */
static uint32_t
keyof(struct trace_reader *r, const char *s, size_t n)
{
	return fold_intern(r->keys, s, n);
}

/* A pid or tid as text: a number or a string as written; "" if none. */
static const char *
idtext(struct json *j, const struct json_val *v, size_t *n)
{
	if (v && (json_type(v) == JSON_NUMBER ||
	    json_type(v) == JSON_STRING))
		return json_text(j, v, n);
	*n = 0;
	return "";
}

/* The key of two texts joined by sep. */
static uint32_t
pairkey(struct trace_reader *r, const char *a, size_t na, char sep,
    const char *b, size_t nb)
{
	r->buf = fold_grow(r->buf, &r->bufcap, na + nb + 1, 1);
	memcpy(r->buf, a, na);
	r->buf[na] = sep;
	memcpy(r->buf + na + 1, b, nb);
	return keyof(r, r->buf, na + 1 + nb);
}

/* Grows a key-indexed table of uint32_t to hold key k, new slots v. */
static uint32_t *
bykey(uint32_t *t, size_t *cap, uint32_t k, uint32_t v)
{
	size_t old = *cap, i;

	if (k < old)
		return t;
	t = fold_grow(t, cap, (size_t)k + 1, sizeof *t);
	for (i = old; i < *cap; i++)
		t[i] = v;
	return t;
}

static struct thread *
thread(struct trace_reader *r, struct json *j, const struct json_val *ev)
{
	size_t np, nt;
	const char *p = idtext(j, json_member(j, ev, "pid"), &np);
	const char *t = idtext(j, json_member(j, ev, "tid"), &nt);
	uint32_t k = pairkey(r, p, np, '\t', t, nt), pk, tk;
	struct thread *th;

	r->thread_of = bykey(r->thread_of, &r->thread_ofcap, k, 0);
	if (r->thread_of[k])
		return &r->threads[r->thread_of[k] - 1];
	pk = keyof(r, p, np);
	tk = keyof(r, t, nt);
	r->threads = fold_grow(r->threads, &r->threadcap, r->nthreads + 1,
	    sizeof *r->threads);
	th = &r->threads[r->nthreads++];
	memset(th, 0, sizeof *th);
	th->pid = pk;
	th->tid = tk;
	th->name = NONE;
	r->thread_of = bykey(r->thread_of, &r->thread_ofcap, k, 0);
	r->thread_of[k] = (uint32_t)r->nthreads;
	return th;
}

/* A string member as an interned frame name ('_' for ';' and controls). */
static uint32_t
name(struct trace_reader *r, struct json *j, const struct json_val *v)
{
	const char *s;
	size_t n;

	if (!v || json_type(v) != JSON_STRING)
		return NONE;
	s = json_text(j, v, &n);
	if (n == 0)
		return fold_intern(r->frames, "[unnamed]", 9);
	r->buf = fold_grow(r->buf, &r->bufcap, n, 1);
	memcpy(r->buf, s, n);
	fold_frame_clean(r->buf, n);
	return fold_intern(r->frames, r->buf, n);
}

/* A time member in nanoseconds (the trace's microseconds, exactly). */
static int
nanos(struct json *j, const struct json_val *v, int64_t *out)
{
	json_fixed_t x;
	const char *s;
	size_t n;

	if (!v || json_type(v) != JSON_NUMBER)
		return 0;
	s = json_text(j, v, &n);
	if (!json_fixed(s, n, 3, &x) || x > INT64_MAX / 4 || x < -INT64_MAX / 4)
		return 0;
	*out = (int64_t)x;
	return 1;
}

/* An "M" event: a thread's name. */
static int
metadata(struct trace_reader *r, struct json *j, const struct json_val *ev)
{
	const struct json_val *nm = json_member(j, ev, "name");
	uint32_t id;

	if (!json_is(j, nm, "thread_name"))
		return 0;
	id = name(r, j, json_member(j, json_member(j, ev, "args"), "name"));
	if (id != NONE)
		thread(r, j, ev)->name = id;
	return 0;
}

/* A "B", "E" or "X" event, kept for its thread. */
static int
duration(struct trace_reader *r, struct json *j, const struct json_val *ev,
    char ph, uint64_t line)
{
	struct thread *th;
	struct dur *d;
	int64_t ts, dur = 0;

	if (!nanos(j, json_member(j, ev, "ts"), &ts))
		return warn(r, line, "%s \"%c\" event without a time (ts): "
		    "ignored", ph == 'B' ? "a" : "an", ph);
	if (ph == 'X' && (!nanos(j, json_member(j, ev, "dur"), &dur) ||
	    dur < 0))
		return warn(r, line, "an \"X\" event without a duration (dur) "
		    "of 0 or more: ignored");
	if (ts > r->last)
		r->last = ts;
	if (ts + dur > r->last)
		r->last = ts + dur;
	/* nothing to credit, or durations not read */
	if ((ph == 'X' && dur == 0) || r->opt.mode == TRACE_SAMPLES)
		return 0;
	th = thread(r, j, ev);
	th->d = fold_grow(th->d, &th->cap, th->n + 1, sizeof *th->d);
	d = &th->d[th->n++];
	d->ts = ts;
	d->end = ts + dur;
	d->ph = ph;
	d->seq = r->seq++;
	d->name = name(r, j, json_member(j, ev, "name"));
	if (d->name == NONE && ph != 'E')
		d->name = fold_intern(r->frames, "[unnamed]", 9);
	return 0;
}

/* The profile of an event's pid and id (or the id given). */
static struct profile *
profile(struct trace_reader *r, struct json *j, const struct json_val *ev,
    const char *given)
{
	size_t np, ni;
	const char *p = idtext(j, json_member(j, ev, "pid"), &np);
	const char *id = given ? given : idtext(j, json_member(j, ev, "id"),
	    &ni);
	uint32_t k, pk;

	if (given)
		ni = strlen(given);
	struct profile *pr;

	pk = keyof(r, p, np);
	/* "pid\n id": apart from the threads' "pid\t tid" */
	k = pairkey(r, p, np, '\n', id, ni);
	r->profile_of = bykey(r->profile_of, &r->profile_ofcap, k, 0);
	if (r->profile_of[k])
		return &r->profiles[r->profile_of[k] - 1];
	r->profiles = fold_grow(r->profiles, &r->profilecap, r->nprofiles + 1,
	    sizeof *r->profiles);
	pr = &r->profiles[r->nprofiles++];
	pr->pid = pk;
	pr->tid = NONE;
	pr->samples = 0;
	pr->r = chrome_embed_new(&r->copt, r->st, r->file, r->diag);
	r->profile_of = bykey(r->profile_of, &r->profile_ofcap, k, 0);
	r->profile_of[k] = (uint32_t)r->nprofiles;
	return pr;
}

/* The nodes and samples of cp, and the deltas, into the profile pr. */
static int
feed(struct trace_reader *r, struct profile *pr, struct json *j,
    const struct json_val *cp, const struct json_val *deltas, uint64_t line)
{
	const struct json_val *v;
	size_t i;
	int rc;

	chrome_embed_chunk(pr->r, line);
	for (v = json_first(j, json_member(j, cp, "nodes")), i = 0; v;
	    v = json_next(j, v), i++)
		if ((rc = chrome_embed_node(pr->r, j, v, i, line)) < 0)
			return rc;
	for (v = json_first(j, json_member(j, cp, "samples")), i = 0; v;
	    v = json_next(j, v), i++) {
		if ((rc = chrome_embed_sample(pr->r, j, v, i)) < 0)
			return rc;
		pr->samples++;
	}
	for (v = json_first(j, deltas), i = 0; v; v = json_next(j, v), i++)
		if ((rc = chrome_embed_delta(pr->r, j, v, i)) < 0)
			return rc;
	return 0;
}

/* A "P" event: "Profile" begins a profile, "ProfileChunk" adds to it. */
static int
sampled(struct trace_reader *r, struct json *j, const struct json_val *ev,
    uint64_t line)
{
	const struct json_val *nm = json_member(j, ev, "name"), *data, *cp;
	size_t nt;
	struct profile *pr;
	int64_t t;

	data = json_member(j, json_member(j, ev, "args"), "data");
	if (json_is(j, nm, "Profile")) {
		const char *tid = idtext(j, json_member(j, ev, "tid"), &nt);
		pr = profile(r, j, ev, NULL);
		pr->tid = keyof(r, tid, nt);
		if (json_val_int64(j, json_member(j, data, "startTime"), &t))
			chrome_embed_times(pr->r, &t, NULL);
		return 0;
	}
	if (!json_is(j, nm, "ProfileChunk"))
		return 0;
	pr = profile(r, j, ev, NULL);
	if (json_val_int64(j, json_member(j, data, "endTime"), &t))
		chrome_embed_times(pr->r, NULL, &t);
	cp = json_member(j, data, "cpuProfile");
	return feed(r, pr, j, cp, json_member(j, data, "timeDeltas"), line);
}

/*
 * A "CpuProfile" event, as DevTools saved traces until 2018: a whole
 * profile in args.data.cpuProfile, of the thread of the event.
 */
static int
legacy(struct trace_reader *r, struct json *j, const struct json_val *ev,
    uint64_t line)
{
	const struct json_val *data, *cp, *d;
	struct profile *pr;
	const char *tid;
	char id[32];
	size_t nt;
	int64_t t;

	data = json_member(j, json_member(j, ev, "args"), "data");
	cp = json_member(j, data, "cpuProfile");
	if (!cp || json_type(cp) != JSON_OBJECT)
		return warn(r, line, "a CpuProfile event without a profile "
		    "(args.data.cpuProfile): ignored");
	snprintf(id, sizeof id, "CpuProfile %u", r->seq++);
	pr = profile(r, j, ev, id);
	tid = idtext(j, json_member(j, ev, "tid"), &nt);
	pr->tid = keyof(r, tid, nt);
	if (json_val_int64(j, json_member(j, cp, "startTime"), &t))
		chrome_embed_times(pr->r, &t, NULL);
	if (json_val_int64(j, json_member(j, cp, "endTime"), &t))
		chrome_embed_times(pr->r, NULL, &t);
	d = json_member(j, cp, "timeDeltas");
	return feed(r, pr, j, cp, d ? d : json_member(j, data, "timeDeltas"),
	    line);
}

/* One event of the trace, whole. */
static int
event(struct trace_reader *r, struct json *j, const struct json_val *ev,
    uint64_t line)
{
	const struct json_val *ph;
	const char *s;
	size_t n;

	if (json_type(ev) != JSON_OBJECT)
		return warn(r, line, "an event that is not an object: "
		    "ignored");
	ph = json_member(j, ev, "ph");
	if (!ph || json_type(ph) != JSON_STRING)
		return warn(r, line, "an event without a phase (ph): ignored");
	s = json_text(j, ph, &n);
	if (json_is(j, json_member(j, ev, "name"), "CpuProfile"))
		return r->events++, r->opt.mode == TRACE_DURATIONS ? 0 :
		    legacy(r, j, ev, line);
	if (n != 1)
		return 0;
	r->events++;
	switch (*s) {
	case 'M':
		return metadata(r, j, ev);
	case 'B':
	case 'E':
	case 'X':
		return duration(r, j, ev, *s, line);
	case 'P':
		/* samples not read: kept neither */
		return r->opt.mode == TRACE_DURATIONS ? 0 :
		    sampled(r, j, ev, line);
	default:
		r->events--;
		return 0;	/* instants, flows, async, counters ... */
	}
}

/* A member of "stackFrames", as chrome://tracing wrote them: id -> frame. */
static int
stackframe(struct trace_reader *r, struct json *j, const struct json_val *v,
    uint64_t line)
{
	const struct json_val *par = json_member(j, v, "parent");
	struct sframe *f;
	size_t n;
	const char *s;
	uint32_t k = r->sfkey;

	r->sframe_of = bykey(r->sframe_of, &r->sframe_ofcap, k, 0);
	if (r->sframe_of[k])
		return warn(r, line, "stack frame %s is listed twice: the "
		    "second is skipped", fold_intern_str(r->keys, k, &n) + 1);
	r->sframes = fold_grow(r->sframes, &r->sframecap, r->nsframes + 1,
	    sizeof *r->sframes);
	f = &r->sframes[r->nsframes++];
	r->sframe_of[k] = (uint32_t)r->nsframes;
	f->name = name(r, j, json_member(j, v, "name"));
	if (f->name == NONE)
		f->name = fold_intern(r->frames, "[unnamed]", 9);
	f->parent = NONE;
	if (par && (json_type(par) == JSON_NUMBER ||
	    json_type(par) == JSON_STRING)) {
		s = json_text(j, par, &n);
		f->parent = pairkey(r, "", 0, '\x03', s, n);
	}
	f->root = f->parent == NONE && (json_is(j, json_member(j, v, "name"),
	    "[root]") || json_is(j, json_member(j, v, "name"), "(root)"));
	return 0;
}

/* An element of "samples": a thread's sample of a stack frame id. */
static int
oldsample(struct trace_reader *r, struct json *j, const struct json_val *v,
    uint64_t line)
{
	const struct json_val *sf = json_member(j, v, "sf");
	const struct json_val *w = json_member(j, v, "weight");
	struct thread *th;
	const char *s;
	char key[16];
	size_t n;
	int64_t x = 1;
	uint32_t k;

	if (json_type(v) != JSON_OBJECT || !sf ||
	    (json_type(sf) != JSON_NUMBER && json_type(sf) != JSON_STRING))
		return warn(r, line, "a sample without a stack frame (sf): "
		    "ignored");
	if (w && (json_type(w) == JSON_NUMBER || json_type(w) ==
	    JSON_STRING) && (s = json_text(j, w, &n),
	    !json_int64(s, n, &x) || x < 0))
		return warn(r, line, "a sample whose weight is not a whole "
		    "number: ignored");
	th = thread(r, j, v);
	s = json_text(j, sf, &n);
	/* the key: the thread's index, then the frame's id */
	snprintf(key, sizeof key, "%zu", (size_t)(th - r->threads));
	k = pairkey(r, key, strlen(key), '\x04', s, n);
	r->oldsample_of = bykey(r->oldsample_of, &r->oldsample_ofcap, k, 0);
	if (!r->oldsample_of[k]) {
		r->oldsamples = fold_grow(r->oldsamples, &r->oldsamplecap,
		    r->noldsamples + 1, sizeof *r->oldsamples);
		r->oldsamples[r->noldsamples++] = (struct oldsample){
		    (uint32_t)(th - r->threads),
		    pairkey(r, "", 0, '\x03', s, n), 0 };
		r->oldsample_of = bykey(r->oldsample_of, &r->oldsample_ofcap,
		    k, 0);
		r->oldsample_of[k] = (uint32_t)r->noldsamples;
	}
	r->oldsamples[r->oldsample_of[k] - 1].weight += (uint64_t)x;
	r->nold++;
	return 0;
}

enum { IN_NONE, IN_NEXT, IN_EVENTS, IN_SAMPLES, IN_FRAMES };

/* Each event of the input (json.h). */
static int
on(void *ctx, struct json *j, const struct json_event *e)
{
	struct trace_reader *r = ctx;
	int start = e->type == JSON_OBJECT || e->type == JSON_ARRAY;
	int base = r->array ? 0 : 1;	/* depth of the events' array */

	if (e->depth == 0) {
		if (e->type == JSON_END)
			return 0;
		if (!start)
			return json_fail(j, "not a Chrome trace: a JSON array "
			    "or object expected");
		r->top = 1;
		r->array = e->type == JSON_ARRAY;
		r->in = r->array ? IN_EVENTS : IN_NONE;
		r->seen_events |= r->array;
		return 0;
	}
	if (!r->array && e->depth == 1) {
		if (e->type == JSON_KEY) {
			r->in = IN_NONE;
			r->next = e->n == 11 && !memcmp(e->s, "traceEvents",
			    11) ? IN_EVENTS : e->n == 7 && !memcmp(e->s,
			    "samples", 7) ? IN_SAMPLES : e->n == 11 &&
			    !memcmp(e->s, "stackFrames", 11) ? IN_FRAMES :
			    IN_NONE;
			if (r->next == IN_EVENTS && r->seen_events)
				return json_fail(j, "\"traceEvents\" given "
				    "twice");
			if (r->next != IN_NONE)
				r->in = IN_NEXT;
			return 0;
		}
		if (e->type == JSON_END) {
			r->in = IN_NONE;
			return 0;
		}
		if (r->in == IN_NEXT && e->type == (r->next == IN_FRAMES ?
		    JSON_OBJECT : JSON_ARRAY)) {
			r->in = r->next;
			r->seen_events |= r->in == IN_EVENTS;
			return 0;
		}
		if (r->in == IN_NEXT && r->next == IN_EVENTS)
			return json_fail(j, "not a Chrome trace: "
			    "\"traceEvents\" is not an array");
		r->in = IN_NONE;
		return start ? JSON_SKIP : 0;
	}
	if (e->depth == base + 1 && r->in == IN_FRAMES &&
	    e->type == JSON_KEY) {
		r->sfkey = pairkey(r, "", 0, '\x03', e->s, e->n);
		return 0;
	}
	if (e->depth == base + 1 && r->in != IN_NONE) {
		if (e->type != JSON_VALUE)
			return JSON_CAPTURE;
		return r->in == IN_EVENTS ? event(r, j, e->v, e->line) :
		    r->opt.mode == TRACE_DURATIONS ? 0 :
		    r->in == IN_SAMPLES ? oldsample(r, j, e->v, e->line) :
		    stackframe(r, j, e->v, e->line);
	}
	return start ? JSON_SKIP : 0;
}

uint32_t
trace_thread_root(struct fold_intern *frames, const char *name, size_t nl,
    const char *pid, size_t pl, const char *tid, size_t tl)
{
	size_t len = nl + 1 + pl + 1 + tl;
	char *b = fold_malloc(len + 1);
	uint32_t id;

	memcpy(b, name, nl);
	b[nl] = '-';
	memcpy(b + nl + 1, pid, pl);
	b[nl + 1 + pl] = '/';
	memcpy(b + nl + 2 + pl, tid, tl);
	fold_frame_clean(b, len);
	id = fold_intern(frames, b, len);
	free(b);
	return id;
}

/* The root frame of a thread's stacks: "NAME-PID/TID". */
static uint32_t
rootof(struct trace_reader *r, uint32_t pid, uint32_t tid, uint32_t nm)
{
	size_t ln = 6, lp, lt = 0;
	const char *n = "thread", *p, *t = "";

	if (nm != NONE)
		n = fold_intern_str(r->frames, nm, &ln);
	p = fold_intern_str(r->keys, pid, &lp);
	if (tid != NONE)
		t = fold_intern_str(r->keys, tid, &lt);
	return trace_thread_root(r->frames, n, ln, p, lp, t, lt);
}

static int
listed(const struct fold_intern *keys, uint32_t k, const char **list,
    size_t n)
{
	size_t i, len;
	const char *s;

	if (n == 0)
		return 1;
	if (k == NONE)
		return 0;
	s = fold_intern_str(keys, k, &len);
	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
			return 1;
	return 0;
}

/* Whether the thread pid/tid (name nm) is one the options keep. */
static int
kept(struct trace_reader *r, uint32_t pid, uint32_t tid, uint32_t nm)
{
	return listed(r->keys, pid, r->opt.pids, r->opt.npids) &&
	    listed(r->keys, tid, r->opt.tids, r->opt.ntids) &&
	    listed(r->frames, nm, r->opt.threads, r->opt.nthreads);
}

/* The order in which a thread's boundaries are taken. */
struct edge {
	int64_t t;
	int64_t end;		/* an X's end */
	uint32_t i;		/* the event */
	uint32_t seq;
	char close;		/* 1 closes */
	char used;		/* a close that was taken */
	char rank;		/* at one time: 0 X ends, 1 B and E, 2 X begins */
};

/* Whether the end e ends the open event o. */
static int
ends(const struct thread *th, const struct edge *e, uint32_t o)
{
	const struct dur *d = &th->d[e->i], *b = &th->d[o];

	if (d->ph == 'X')
		return e->i == o;
	return b->ph == 'B' && (d->name == NONE || d->name == b->name);
}

/*
 * An end that does not end the innermost event: an X ends its own, an
 * E the innermost B of its name (of any name when it has none). The
 * events it encloses that still run go on, under what enclosed it.
 */
static int
end_deep(struct trace_reader *r, const struct thread *th,
    const struct edge *e, uint32_t *open, uint32_t *stack, size_t *depth)
{
	size_t i;

	for (i = *depth; i > 0 && !ends(th, e, open[i - 1]); i--)
		;
	if (i == 0)
		return th->d[e->i].ph == 'E' ? warn(r, 0, "an \"E\" event "
		    "ends no \"B\" open on its thread: ignored") : 0;
	r->badnest++;
	memmove(open + i - 1, open + i, (*depth - i) * sizeof *open);
	memmove(stack + i - 1, stack + i, (*depth - i) * sizeof *stack);
	(*depth)--;
	return 0;
}

/*
 * At one time: the ends of X events (the inner first), then the B and E
 * events in the order of the file (an E that ends the B before it, or a
 * B and E of no length), then the beginnings of X events (the outer
 * first).
 */
static int
byedge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	int rx = x->rank, ry = y->rank;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (rx == 0)
		return x->seq > y->seq ? -1 : x->seq < y->seq;
	if (rx == 2 && x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Folds a thread's duration events into st. */
static int
fold_thread(struct trace_reader *r, struct thread *th, uint32_t root)
{
	struct edge *e = fold_reallocarray(NULL, 2 * th->n + 1, sizeof *e);
	uint32_t *stack = NULL, *open = NULL;	/* names; event indices */
	size_t ne = 0, i, k, g, depth = 0, cap = 0, ocap = 0, base;
	int64_t last = 0;
	int rc = 0, done;
	struct fold_count c;

	for (i = 0; i < th->n; i++) {
		struct dur *d = &th->d[i];
		e[ne++] = (struct edge){ d->ts, d->end, (uint32_t)i, d->seq,
		    d->ph == 'E', 0, d->ph == 'X' ? 2 : 1 };
		if (d->ph == 'X')
			e[ne++] = (struct edge){ d->end, 0, (uint32_t)i,
			    d->seq, 1, 0, 0 };
	}
	qsort(e, ne, sizeof *e, byedge);
	base = root != NONE;
	stack = fold_grow(stack, &cap, base + 1, sizeof *stack);
	if (base)
		stack[0] = root;
	for (k = 0; k < ne && rc == 0; k++) {
		struct dur *d = &th->d[e[k].i];
		if (depth > 0 && e[k].t > last) {
			c = fold_count_u64((uint64_t)(e[k].t - last));
			if (fold_stacks_add(r->st, stack, base + depth, &c) < 0)
				rc = (fold_seterr("%s: %s", r->file,
				    fold_err()), -2);
		}
		last = e[k].t;
		if (!e[k].close) {
			if (depth >= MAX_DEPTH) {
				rc = (fold_seterr("%s: a thread with more than "
				    "%d events open", r->file, MAX_DEPTH), -2);
				break;
			}
			stack = fold_grow(stack, &cap, base + depth + 1,
			    sizeof *stack);
			open = fold_grow(open, &ocap, depth + 1, sizeof *open);
			stack[base + depth] = d->name;
			open[depth++] = e[k].i;
			continue;
		}
		/*
		 * The ends at this time: first each that ends the innermost
		 * event open, in whatever order the sort left them; then
		 * the others, each closing what is above it too.
		 */
		for (g = k; g + 1 < ne && e[g + 1].t == e[k].t &&
		    e[g + 1].close; g++)
			;
		for (done = 1; done && depth > 0; ) {
			done = 0;
			for (i = k; i <= g && i < k + 256; i++)
				if (!e[i].used && ends(th, &e[i],
				    open[depth - 1])) {
					e[i].used = 1;
					depth--;
					done = 1;
					break;
				}
		}
		for (; k <= g && rc == 0; k++)
			if (!e[k].used)
				rc = end_deep(r, th, &e[k], open,
				    stack + base, &depth);
		k = g;
	}
	/* what is open at the end ran to the end of the trace */
	if (rc == 0 && depth > 0 && r->last > last) {
		c = fold_count_u64((uint64_t)(r->last - last));
		if (fold_stacks_add(r->st, stack, base + depth, &c) < 0)
			rc = (fold_seterr("%s: %s", r->file, fold_err()), -2);
	}
	for (i = 0; i < depth; i++)
		r->unended += th->d[open[i]].ph == 'B';
	free(e);
	free(stack);
	free(open);
	return rc;
}

/*
 * The samples of "samples" and "stackFrames": each stack is its frame
 * and the frame's parents up to the root, which (a frame "[root]" with
 * no parent, as V8's "(root)") is left out.
 */
static int
fold_old(struct trace_reader *r)
{
	uint32_t *ids = NULL, k, f, root;
	size_t i, n, cap = 0, len, at;
	struct fold_count c;
	const char *why;
	int rc = 0;

	if (r->nold && r->opt.time)
		return warn(r, 0, "the %llu samples of \"samples\" have no "
		    "time deltas: not read with --time",
		    (unsigned long long)r->nold);
	for (i = 0; i < r->noldsamples && rc == 0; i++) {
		struct oldsample *o = &r->oldsamples[i];
		struct thread *th = &r->threads[o->thread];
		r->samples += o->weight;
		if (!kept(r, th->pid, th->tid, th->name) || o->weight == 0)
			continue;
		root = r->opt.thread_root ? rootof(r, th->pid, th->tid,
		    th->name) : NONE;
		why = NULL;
		n = 0;
		for (k = o->frame; k != NONE && !why; ) {
			f = k < r->sframe_ofcap ? r->sframe_of[k] : 0;
			if (f == 0)
				why = "names a stack frame that is not in "
				    "stackFrames";
			else if (n >= 4096)
				why = "is deeper than 4096 frames, or its "
				    "parents go round";
			else {
				ids = fold_grow(ids, &cap, n + 2, sizeof *ids);
				if (!r->sframes[f - 1].root)
					ids[n++] = r->sframes[f - 1].name;
				k = r->sframes[f - 1].parent;
			}
		}
		if (!why && n == 0)
			why = "is of the root frame alone";
		if (why) {
			r->dropped += o->weight;
			rc = warn(r, 0, "a sample of stack frame %s %s: "
			    "dropped", fold_intern_str(r->keys, o->frame,
			    &len) + 1, why);
			continue;
		}
		/* root first */
		for (at = 0; at < n / 2; at++) {
			k = ids[at];
			ids[at] = ids[n - 1 - at];
			ids[n - 1 - at] = k;
		}
		if (root != NONE) {
			memmove(ids + 1, ids, n * sizeof *ids);
			ids[0] = root;
			n++;
		}
		c = fold_count_u64(o->weight);
		if (fold_stacks_add(r->st, ids, n, &c) < 0)
			rc = (fold_seterr("%s: %s", r->file, fold_err()), -2);
	}
	free(ids);
	return rc;
}

/* The end of an input: its stacks into st. */
static int
fold_input(struct trace_reader *r)
{
	const struct chrome_stats *st;
	uint64_t samples = 0;
	size_t i, k;
	int mode = r->opt.mode, rc = 0;

	for (i = 0; i < r->nprofiles; i++)
		samples += r->profiles[i].samples;
	samples += r->nold;
	if (mode == TRACE_AUTO)
		mode = samples ? TRACE_SAMPLES : TRACE_DURATIONS;
	r->unit = mode == TRACE_DURATIONS ? "nanoseconds" :
	    r->opt.time ? "microseconds" : NULL;
	if (mode == TRACE_SAMPLES) {
		for (i = 0; i < r->nprofiles && rc == 0; i++) {
			struct profile *p = &r->profiles[i];
			uint32_t nm = NONE, root = NONE;
			/* the thread the Profile event named */
			for (k = 0; p->tid != NONE && k < r->nthreads; k++)
				if (r->threads[k].pid == p->pid &&
				    r->threads[k].tid == p->tid)
					nm = r->threads[k].name;
			if (!kept(r, p->pid, p->tid, nm))
				continue;
			if (r->opt.thread_root)
				root = rootof(r, p->pid, p->tid, nm);
			/* a profile that cannot be read spoils no other */
			rc = chrome_embed_finish(p->r, root);
			if (rc == -1)
				rc = warn(r, 0, "%s: the profile is skipped",
				    fold_err());
			st = chrome_reader_stats(p->r);
			r->samples += st->samples;
			r->dropped += st->dropped;
		}
		return rc ? rc : fold_old(r);
	}
	for (i = 0; i < r->nthreads && rc == 0; i++) {
		struct thread *th = &r->threads[i];
		if (th->n == 0 || !kept(r, th->pid, th->tid, th->name))
			continue;
		rc = fold_thread(r, th, r->opt.thread_root ? rootof(r,
		    th->pid, th->tid, th->name) : NONE);
	}
	return rc;
}

static int
trace_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct trace_reader *r = rp;
	int rc;

	r->file = fold_in_name(in);
	if (json_begin(in, r->opt.max_size ? r->opt.max_size : TRACE_MAX_SIZE,
	    "{[", "a Chrome trace") < 0)
		return -1;
	reset(r);
	r->keys = fold_intern_new();
	if (r->thread_ofcap)
		memset(r->thread_of, 0, r->thread_ofcap * sizeof *r->thread_of);
	if (r->profile_ofcap)
		memset(r->profile_of, 0, r->profile_ofcap *
		    sizeof *r->profile_of);
	r->diag = diag;
	r->top = r->array = r->seen_events = 0;
	r->in = r->next = IN_NONE;
	r->nsframes = r->noldsamples = r->nold = 0;
	if (r->sframe_ofcap)
		memset(r->sframe_of, 0, r->sframe_ofcap * sizeof *r->sframe_of);
	if (r->oldsample_ofcap)
		memset(r->oldsample_of, 0, r->oldsample_ofcap *
		    sizeof *r->oldsample_of);
	r->seq = 0;
	r->last = INT64_MIN;
	if (!r->json) {
		r->json = json_new(on, r);
		/* the events' array, in an object or not, may stay open */
		json_allow_unclosed(r->json, 2);
	}
	rc = json_read(r->json, in);
	if (rc == 0 && !r->top)
		rc = fold_seterr_at(r->file, 1, "not a Chrome trace: a JSON "
		    "array or object expected");
	if (rc == 0 && !r->seen_events)
		rc = fold_seterr("%s: not a Chrome trace: no \"traceEvents\" "
		    "array", r->file);
	if (rc == 0)
		rc = fold_input(r);
	return rc;
}

static const char *
trace_unit(const void *rp)
{
	return ((const struct trace_reader *)rp)->unit;
}

static uint64_t
trace_records(const void *rp)
{
	return ((const struct trace_reader *)rp)->events;
}

static int
trace_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct trace_reader *r = rp;
	char msg[256];

	if (r->dropped) {
		snprintf(msg, sizeof msg, "%llu of %llu samples dropped",
		    (unsigned long long)r->dropped,
		    (unsigned long long)r->samples);
		say(arg, msg);
	}
	if (r->unended) {
		snprintf(msg, sizeof msg, "%llu \"B\" event%s never ended: "
		    "taken to run to the end of the trace",
		    (unsigned long long)r->unended, r->unended == 1 ? "" : "s");
		say(arg, msg);
	}
	if (r->badnest) {
		snprintf(msg, sizeof msg, "%llu event%s ended while events "
		    "%s enclosed still ran: those ran on without %s",
		    (unsigned long long)r->badnest, r->badnest == 1 ? "" : "s",
		    r->badnest == 1 ? "it" : "they",
		    r->badnest == 1 ? "it" : "them");
		say(arg, msg);
	}
	return 0;
}

#define OFF(field) offsetof(struct trace_opt, field)

static const struct fold_option trace_options[] = {
	{ .name = "durations", .kind = FOLD_OPT_FLAG, .off = OFF(mode),
	    .value = TRACE_DURATIONS,
	    .help = "fold the duration events (B/E, X), in nanoseconds" },
	{ .name = "lines", .kind = FOLD_OPT_FLAG, .off = OFF(lines),
	    .value = 1,
	    .help = "samples: frames \"name url:line\" where a url is known" },
	{ .name = "max-size", .arg = "BYTES", .kind = FOLD_OPT_SIZE,
	    .off = OFF(max_size),
	    .help = "refuse an input larger than BYTES (K, M, G, T)" },
	{ .name = "no-jit", .kind = FOLD_OPT_FLAG, .off = OFF(no_jit),
	    .value = 1,
	    .help = "samples: no \"_[j]\" on functions of the page's scripts" },
	{ .name = "process-id", .arg = "PID", .kind = FOLD_OPT_LIST,
	    .off = OFF(pids),
	    .countoff = OFF(npids),
	    .help = "read only the threads of process PID (repeatable)" },
	{ .name = "samples", .kind = FOLD_OPT_FLAG, .off = OFF(mode),
	    .value = TRACE_SAMPLES,
	    .help = "fold the sampled CPU profiles (ProfileChunk events)" },
	{ .name = "thread-id", .arg = "TID", .kind = FOLD_OPT_LIST,
	    .off = OFF(tids),
	    .countoff = OFF(ntids),
	    .help = "read only the thread TID (repeatable)" },
	{ .name = "thread-name", .arg = "NAME", .kind = FOLD_OPT_LIST,
	    .off = OFF(threads), .countoff = OFF(nthreads),
	    .help = "read only the threads named NAME (repeatable)" },
	{ .name = "thread-root", .kind = FOLD_OPT_FLAG, .off = OFF(thread_root),
	    .value = 1,
	    .help = "put each stack under \"THREAD-PID/TID\"" },
	{ .name = "time", .kind = FOLD_OPT_FLAG, .off = OFF(time),
	    .value = 1,
	    .help = "samples: count microseconds, not samples" },
	{ .name = NULL }
};

#undef OFF

static const struct trace_opt trace_defaults = TRACE_OPT_INIT;

const struct format trace_format = {
	.id = &trace_id,
	.kind = FOLD_DOCUMENT,
	.one = "entry",
	.many = "entries",
	.options = trace_options,
	.optsize = sizeof(struct trace_opt),
	.defaults = &trace_defaults,
	.open = trace_open,
	.read = trace_read,
	.unit = trace_unit,
	.records = trace_records,
	.finish = trace_finish,
	.close = trace_close,
};
