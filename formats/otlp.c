#define PCRE2_CODE_UNIT_WIDTH 8
#include <inttypes.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/intern.h"
#include "libfold/str.h"
#include "libfold/unit.h"
#include "formats/json.h"
#include "formats/otlp.h"
#include "formats/otlp.pb-c.h"
#include "formats/pbutil.h"
#include "formats/tables.h"

#define NONE UINT32_MAX
#define MAX_DEPTH 65536

struct sample {
	uint32_t prof, stack;
	int64_t value;
	uint32_t attr, nattr;	/* its attribute indices: attrs.v[attr ..] */
};

/* An attribute: KEY=VALUE, its text in tags. */
struct attr {
	size_t key, klen, val, vlen;
};

struct func {
	uint32_t name, sysname, file;
};

struct loc {
	uint32_t mapping;
	uint64_t address;
	uint32_t first, nlines;	/* into lines */
};

struct line {
	uint32_t func;
	int64_t line;
};

struct map {
	uint32_t file;
	uint64_t start, offset;
};

/* A --tag-focus or --tag-ignore: its key (NUL-ended copy) and pattern. */
struct tagre {
	const char *spec;
	char *key;
	pcre2_code *re;
	int ignore;
};

struct otlp_reader {
	struct otlp_opt opt;
	struct fold_stacks *st;
	struct fold_intern *frames;
	uint64_t records;
	char unit[FOLD_UNIT_MAX + 1];
	const char *unitp;	/* the input's unit, or NULL */
	int matched;		/* --sample-index named a type read */
	struct tagre *res;
	size_t nres;
	pcre2_match_data *md;

	/* one input */
	const char *file;
	struct fold_diag *diag;
	struct json *json;
	int top, key[8];
	int has_dict;
	struct strtab strs;	/* the dictionary's string table */
	struct func *fn;
	size_t nfn, fncap;
	struct loc *lc;
	size_t nlc, lccap;
	struct line *ln;
	size_t nln, lncap;
	struct map *mp;
	size_t nmp, mpcap;
	struct u32vec stk;	/* stacks' locations, one after another */
	struct u32vec stkoff;	/* stack i: stk.v[stkoff[i] .. stkoff[i+1]) */
	struct u32vec ptype, punit;	/* by profile: its sample type */
	/*
	 * Attributes, for --tag-root and --tag-leaf: the dictionary's
	 * attributeTable, the resources' own attributes (rattr, each
	 * resource a run of them: roff), and for each profile its
	 * resource and its attribute indices (pattr/pnattr into attrs)
	 */
	char *tags;
	size_t tlen, tcap;
	struct attr *at, *rat;
	size_t nat, atcap, nrat, ratcap;
	struct u32vec roff, pres, pattr, pnattr, attrs;
	struct sample *sm;
	size_t nsm, smcap;

	/* the frame of each line (by index into ln) and of each location
	   without lines (by index into lc), once named: NONE until then */
	uint32_t *lnid, *lcid;
	size_t lnidcap, lcidcap;
	char *name;
	size_t namecap, namelen;
	uint32_t *ids;
	size_t idscap;
};

enum key { K_OTHER, K_RESOURCE, K_DICT, K_SCOPE, K_PROFILES, K_TYPE,
    K_SAMPLES, K_STRINGS, K_FUNCS, K_LOCS, K_MAPS, K_STACKS, K_OLD,
    K_RES, K_ATTRS, K_PATTRS };

#define warn(r, line, ...) \
	(fold_warn((r)->diag, (r)->file, (line), __VA_ARGS__) < 0 ? -2 : 0)

static void otlp_close(void *rp);

static void *
otlp_open(const void *optp, struct fold_stacks *st)
{
	struct otlp_reader *r = fold_calloc(1, sizeof *r);

	const struct otlp_opt *opt = optp;
	size_t i;

	r->opt = *opt;
	r->st = st;
	r->frames = fold_stacks_frames(st);
	r->nres = opt->ntag_focus + opt->ntag_ignore;
	r->res = fold_calloc(r->nres + 1, sizeof *r->res);
	r->md = pcre2_match_data_create(1, NULL);
	for (i = 0; i < r->nres; i++) {
		struct tagre *t = &r->res[i];
		const char *eq;
		PCRE2_SIZE eoff;
		int err;
		t->ignore = i >= opt->ntag_focus;
		t->spec = t->ignore ? opt->tag_ignore[i - opt->ntag_focus] :
		    opt->tag_focus[i];
		if (!(eq = strchr(t->spec, '=')) || eq == t->spec) {
			fold_seterr("tag %s '%s': expected KEY=REGEX", t->ignore ?
			    "ignore" : "focus", t->spec);
			otlp_close(r);
			return NULL;
		}
		t->key = fold_strndup(t->spec, (size_t)(eq - t->spec));
		t->re = pcre2_compile((PCRE2_SPTR)eq + 1, PCRE2_ZERO_TERMINATED,
		    0, &err, &eoff, NULL);
		if (!t->re) {
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(err, msg, sizeof msg);
			fold_seterr("tag %s '%s': %s at offset %zu", t->ignore ?
			    "ignore" : "focus", t->spec, (char *)msg,
			    (size_t)eoff);
			otlp_close(r);
			return NULL;
		}
	}
	return r;
}

static void
otlp_close(void *rp)
{
	struct otlp_reader *r = rp;

	if (!r)
		return;
	strtab_free(&r->strs);
	free(r->fn);
	free(r->lc);
	free(r->ln);
	free(r->mp);
	free(r->stk.v);
	free(r->stkoff.v);
	free(r->ptype.v);
	free(r->punit.v);
	free(r->sm);
	free(r->tags);
	free(r->at);
	free(r->rat);
	free(r->roff.v);
	free(r->pres.v);
	free(r->pattr.v);
	free(r->pnattr.v);
	free(r->attrs.v);
	free(r->lnid);
	free(r->lcid);
	for (size_t i = 0; i < r->nres; i++) {
		free(r->res[i].key);
		pcre2_code_free(r->res[i].re);
	}
	free(r->res);
	pcre2_match_data_free(r->md);
	free(r->name);
	free(r->ids);
	json_free(r->json);
	free(r);
}

/* An integer, as OTLP/JSON writes 64-bit ones (a decimal string) or not. */
static int
val_i64(const struct json *j, const struct json_val *v, int64_t *x)
{
	const char *s;
	size_t n;

	if (!v)
		return 0;
	if (json_type(v) == JSON_STRING) {
		s = json_text(j, v, &n);
		return json_int64(s, n, x);
	}
	return json_val_int64(j, v, x);
}

/* An index member of obj: its value, 0 when absent (proto3's default). */
static uint32_t
idx(const struct json *j, const struct json_val *obj, const char *key)
{
	int64_t x;
	const struct json_val *v = json_member(j, obj, key);

	if (!v)
		return 0;
	if (!val_i64(j, v, &x) || x < 0 || x >= NONE)
		return NONE;
	return (uint32_t)x;
}

static const char *
str(const struct otlp_reader *r, uint32_t i, size_t *n)
{
	return strtab_get(&r->strs, i, n);
}

static enum key
keyof(int depth, const char *s, size_t n)
{
#define IS(x) (n == sizeof x - 1 && memcmp(s, x, n) == 0)
	switch (depth) {
	case 1:
		return IS("resourceProfiles") ? K_RESOURCE :
		    IS("dictionary") ? K_DICT : K_OTHER;
	case 2:
		return IS("stringTable") ? K_STRINGS : IS("functionTable") ?
		    K_FUNCS : IS("locationTable") ? K_LOCS :
		    IS("mappingTable") ? K_MAPS : IS("stackTable") ? K_STACKS :
		    IS("attributeTable") ? K_ATTRS : K_OTHER;
	case 3:
		return IS("scopeProfiles") ? K_SCOPE : IS("resource") ? K_RES :
		    K_OTHER;
	case 5:
		return IS("profiles") ? K_PROFILES : K_OTHER;
	case 7:
		/* tables in each profile: before v1.6.0 */
		if (IS("stringTable") || IS("locationTable") ||
		    IS("functionTable") || IS("locationIndices"))
			return K_OLD;
		return IS("sampleType") ? K_TYPE : IS("samples") ||
		    IS("sample") ? K_SAMPLES : IS("attributeIndices") ?
		    K_PATTRS : K_OTHER;
	}
	return K_OTHER;
#undef IS
}

/* Appends s[0..n) to the attribute texts; its offset. */
static size_t
tag_text(struct otlp_reader *r, const char *s, size_t n)
{
	size_t at = r->tlen;

	r->tags = fold_grow(r->tags, &r->tcap, r->tlen + n + 1, 1);
	if (n)
		memcpy(r->tags + r->tlen, s, n);
	r->tlen += n;
	return at;
}

/*
 * An AnyValue as the text of a tag: a string, an integer, a double or a
 * boolean as written; a string of the string table (v1.10.0); else "".
 * Its offset in tags, and *n.
 */
static size_t
anyvalue(struct otlp_reader *r, const struct json *j,
    const struct json_val *v, size_t *n)
{
	static const char *const kinds[] = { "stringValue", "intValue",
	    "doubleValue", "boolValue" };
	const struct json_val *x;
	const char *s;
	size_t i, l;
	uint32_t si;

	*n = 0;
	for (i = 0; v && i < 4; i++)
		if ((x = json_member(j, v, kinds[i])) != NULL) {
			if (json_type(x) == JSON_TRUE)
				s = "true", l = 4;
			else if (json_type(x) == JSON_FALSE)
				s = "false", l = 5;
			else if (!(s = json_text(j, x, &l)))
				s = "", l = 0;
			*n = l;
			return tag_text(r, s, l);
		}
	if (v && (si = idx(j, v, "stringValueStrindex")) != NONE &&
	    (s = str(r, si, &l)) != NULL) {
		*n = l;
		return tag_text(r, s, l);
	}
	return tag_text(r, "", 0);
}

/* Attribute indices, from a list, onto attrs; how many. */
static uint32_t
indices(struct otlp_reader *r, const struct json *j, const struct json_val *a)
{
	const struct json_val *e;
	uint32_t n = 0;
	int64_t x;

	for (e = json_first(j, a); e; e = json_next(j, e), n++)
		u32vec_push(&r->attrs, val_i64(j, e, &x) && x >= 0 &&
		    x < NONE ? (uint32_t)x : NONE);
	return n;
}

/* A resource, whole: its attributes, each "key" (or keyStrindex). */
static int
resource(struct otlp_reader *r, struct json *j, const struct json_val *v)
{
	const struct json_val *e, *k;
	const char *s;
	size_t l;
	uint32_t ki;

	for (e = json_first(j, json_member(j, v, "attributes")); e;
	    e = json_next(j, e)) {
		r->rat = fold_grow(r->rat, &r->ratcap, r->nrat + 1,
		    sizeof *r->rat);
		if ((k = json_member(j, e, "key")) &&
		    json_type(k) == JSON_STRING)
			s = json_text(j, k, &l);
		else if ((ki = idx(j, e, "keyStrindex")) == NONE ||
		    !(s = str(r, ki, &l)))
			s = "", l = 0;
		r->rat[r->nrat].key = tag_text(r, s, l);
		r->rat[r->nrat].klen = l;
		r->rat[r->nrat].val = anyvalue(r, j, json_member(j, e,
		    "value"), &r->rat[r->nrat].vlen);
		r->nrat++;
	}
	return 0;
}

/* dictionary.<table>[i], whole. */
static int
entry(struct otlp_reader *r, struct json *j, const struct json_val *v,
    uint64_t line)
{
	const struct json_val *a, *e;
	int64_t x;

	/* kept, empty, so that the entries after it keep their indices */
	if ((!v || json_type(v) != JSON_OBJECT) && warn(r, line, "a "
	    "dictionary entry is not an object: taken as empty") < 0)
		return -2;
	switch (r->key[2]) {
	case K_FUNCS:
		r->fn = fold_grow(r->fn, &r->fncap, r->nfn + 1, sizeof *r->fn);
		r->fn[r->nfn].name = idx(j, v, "nameStrindex");
		r->fn[r->nfn].sysname = idx(j, v, "systemNameStrindex");
		r->fn[r->nfn++].file = idx(j, v, "filenameStrindex");
		break;
	case K_MAPS:
		r->mp = fold_grow(r->mp, &r->mpcap, r->nmp + 1, sizeof *r->mp);
		r->mp[r->nmp].file = idx(j, v, "filenameStrindex");
		r->mp[r->nmp].start = val_i64(j, json_member(j, v,
		    "memoryStart"), &x) ? (uint64_t)x : 0;
		r->mp[r->nmp++].offset = val_i64(j, json_member(j, v,
		    "fileOffset"), &x) ? (uint64_t)x : 0;
		break;
	case K_LOCS:
		r->lc = fold_grow(r->lc, &r->lccap, r->nlc + 1, sizeof *r->lc);
		r->lc[r->nlc].mapping = idx(j, v, "mappingIndex");
		r->lc[r->nlc].address = val_i64(j, json_member(j, v,
		    "address"), &x) ? (uint64_t)x : 0;
		r->lc[r->nlc].first = (uint32_t)r->nln;
		if (!(a = json_member(j, v, "lines")))
			a = json_member(j, v, "line");	/* before v1.9.0 */
		for (e = json_first(j, a); e; e = json_next(j, e)) {
			r->ln = fold_grow(r->ln, &r->lncap, r->nln + 1,
			    sizeof *r->ln);
			r->ln[r->nln].func = idx(j, e, "functionIndex");
			r->ln[r->nln++].line = val_i64(j, json_member(j, e,
			    "line"), &x) ? x : 0;
		}
		r->lc[r->nlc].nlines = (uint32_t)(r->nln - r->lc[r->nlc].first);
		r->nlc++;
		break;
	case K_ATTRS:
		/* keyStrindex: the key is known once the strings are */
		r->at = fold_grow(r->at, &r->atcap, r->nat + 1, sizeof *r->at);
		r->at[r->nat].key = idx(j, v, "keyStrindex");
		r->at[r->nat].klen = 0;
		r->at[r->nat].val = anyvalue(r, j, json_member(j, v, "value"),
		    &r->at[r->nat].vlen);
		r->nat++;
		break;
	case K_STACKS:
		u32vec_push(&r->stkoff, (uint32_t)r->stk.n);
		a = json_member(j, v, "locationIndices");
		for (e = json_first(j, a); e; e = json_next(j, e))
			u32vec_push(&r->stk, val_i64(j, e, &x) && x >= 0 &&
			    x < NONE ? (uint32_t)x : NONE);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * A sample of the profile being read, as JSON or protobuf give it: nv
 * values, v the first (bad set when one is not a non-negative integer),
 * or none and nt timestamps that count 1 each. Returns the sample kept,
 * its attributes for the caller to add; NULL when it weighs nothing or
 * is dropped, *rc then what the warning gave.
 */
static struct sample *
add_sample(struct otlp_reader *r, uint64_t line, size_t nv, int64_t v,
    int bad, size_t nt, uint32_t stack, int *rc)
{
	struct sample *sm;

	*rc = 0;
	if (bad) {
		*rc = warn(r, line, "a sample value is not a non-negative "
		    "integer: the sample is dropped");
		return NULL;
	}
	if (nv > 1) {
		*rc = warn(r, line, "a sample has %zu values and its profile "
		    "one sample type: dropped", nv);
		return NULL;
	}
	r->records++;
	if ((nv ? v : (int64_t)nt) == 0)
		return NULL;
	r->sm = fold_grow(r->sm, &r->smcap, r->nsm + 1, sizeof *r->sm);
	sm = &r->sm[r->nsm++];
	sm->prof = (uint32_t)(r->ptype.n - 1);
	sm->stack = stack;
	sm->value = nv ? v : (int64_t)nt;
	sm->attr = (uint32_t)r->attrs.n;
	sm->nattr = 0;
	return sm;
}

/* profiles[..].samples[i], whole. */
static int
sample(struct otlp_reader *r, struct json *j, const struct json_val *v,
    uint64_t line)
{
	const struct json_val *vals, *e;
	struct sample *sm;
	int64_t x = 0, first = 0;
	size_t n = 0, nt = 0;
	int bad = 0, rc;

	if (json_type(v) != JSON_OBJECT)
		return warn(r, line, "a sample is not an object: dropped");
	if (json_member(j, v, "locationsStartIndex") ||
	    json_member(j, v, "locationsLength"))
		return json_fail(r->json, "OTLP profiles of v1.7.0 (samples "
		    "that slice the profile's locations) are not read: "
		    "v1.8.0 and later are");
	vals = json_member(j, v, "values");
	if (!vals)
		vals = json_member(j, v, "value");
	for (e = json_first(j, vals); e; e = json_next(j, e), n++) {
		bad |= !val_i64(j, e, &x) || x < 0;
		if (n == 0)
			first = x;
	}
	for (e = json_first(j, json_member(j, v, "timestampsUnixNano")); e;
	    e = json_next(j, e))
		nt++;
	if ((sm = add_sample(r, line, n, first, bad, nt, idx(j, v,
	    "stackIndex"), &rc)) != NULL)
		sm->nattr = indices(r, j, json_member(j, v,
		    "attributeIndices"));
	return rc;
}

static int
on(void *ctx, struct json *j, const struct json_event *e)
{
	struct otlp_reader *r = ctx;
	int d = e->depth, start = e->type == JSON_OBJECT ||
	    e->type == JSON_ARRAY;

	if (e->type == JSON_KEY) {
		if (d < 8)
			r->key[d] = keyof(d, e->s, e->n);
		if (d == 7 && r->key[7] == K_OLD)
			return json_fail(j, "OTLP profiles before v1.8.0 (tables "
			    "in each profile) are not read: v1.8.0 and later "
			    "are");
		return 0;
	}
	if (e->type == JSON_END)
		return 0;
	if (d == 0) {
		if (e->type != JSON_OBJECT)
			return json_fail(j, "not OTLP profiles: a JSON object "
			    "expected");
		r->top = 1;
		return 0;
	}
	if (e->type == JSON_VALUE) {
		if (d == 3 && r->key[1] == K_DICT)
			return entry(r, j, e->v, e->line);
		if (d == 3 && r->key[3] == K_RES)
			return resource(r, j, e->v);
		if (d == 7 && r->key[7] == K_PATTRS) {
			r->pattr.v[r->pattr.n - 1] = (uint32_t)r->attrs.n;
			r->pnattr.v[r->pnattr.n - 1] = indices(r, j, e->v);
			return 0;
		}
		if (d == 7 && r->key[7] == K_TYPE) {
			uint32_t t = idx(j, e->v, "typeStrindex");
			uint32_t u = idx(j, e->v, "unitStrindex");
			if (json_type(e->v) != JSON_OBJECT)
				return json_fail(j, "a profile's sampleType is "
				    "not one ValueType: before v1.8.0, not "
				    "read");
			r->ptype.v[r->ptype.n - 1] = t;
			r->punit.v[r->punit.n - 1] = u;
			return 0;
		}
		if (d == 8)
			return sample(r, j, e->v, e->line);
		return 0;
	}
	/* the path down: keep what leads to profiles and the dictionary */
	switch (d) {
	case 1:
		if (r->key[1] == K_DICT && e->type == JSON_OBJECT) {
			r->has_dict = 1;
			return 0;
		}
		return r->key[1] == K_RESOURCE && e->type == JSON_ARRAY ? 0 :
		    start ? JSON_SKIP : 0;
	case 2:
		if (r->key[1] == K_DICT)
			return r->key[2] != K_OTHER && e->type == JSON_ARRAY ?
			    0 : start ? JSON_SKIP : 0;
		if (e->type == JSON_OBJECT) {
			/* a resource: its attributes begin */
			u32vec_push(&r->roff, (uint32_t)r->nrat);
			return 0;
		}
		return start ? JSON_SKIP : 0;
	case 3:
		if (r->key[1] == K_DICT) {
			if (r->key[2] == K_STRINGS) {
				/* a string, or "" to keep the indices */
				if (e->type == JSON_STRING)
					strtab_add(&r->strs, e->s, e->n);
				else
					strtab_add(&r->strs, "", 0);
				return start ? JSON_SKIP : 0;
			}
			if (start)
				return JSON_CAPTURE;
			return entry(r, j, NULL, json_line(j));
		}
		if (r->key[3] == K_RES && e->type == JSON_OBJECT)
			return JSON_CAPTURE;
		return r->key[3] == K_SCOPE && e->type == JSON_ARRAY ? 0 :
		    start ? JSON_SKIP : 0;
	case 4:
		return e->type == JSON_OBJECT ? 0 : start ? JSON_SKIP : 0;
	case 5:
		return r->key[5] == K_PROFILES && e->type == JSON_ARRAY ? 0 :
		    start ? JSON_SKIP : 0;
	case 6:
		if (e->type != JSON_OBJECT)
			return start ? JSON_SKIP : 0;
		u32vec_push(&r->ptype, 0);
		u32vec_push(&r->punit, 0);
		u32vec_push(&r->pres, (uint32_t)r->roff.n - 1);
		u32vec_push(&r->pattr, 0);
		u32vec_push(&r->pnattr, 0);
		return 0;
	case 7:
		if ((r->key[7] == K_TYPE || r->key[7] == K_PATTRS) && start)
			return JSON_CAPTURE;
		return r->key[7] == K_SAMPLES && e->type == JSON_ARRAY ? 0 :
		    start ? JSON_SKIP : 0;
	case 8:
		if (r->key[7] != K_SAMPLES)
			return start ? JSON_SKIP : 0;
		if (start)
			return JSON_CAPTURE;
		return warn(r, json_line(j), "a sample is not an object: "
		    "dropped");
	default:
		return start ? JSON_SKIP : 0;
	}
}

/* Appends s[0..n) to the frame name being made. */
static void
put(struct otlp_reader *r, const char *s, size_t n)
{
	r->name = fold_grow(r->name, &r->namecap, r->namelen + n + 1, 1);
	if (n)		/* s may be NULL then */
		memcpy(r->name + r->namelen, s, n);
	r->namelen += n;
}

/* "module+0xOFFSET", "0xADDRESS" or "[unknown]", as pprof2folded's. */
static void
address_name(struct otlp_reader *r, const struct loc *l)
{
	const struct map *m = l->mapping > 0 && l->mapping < r->nmp ?
	    &r->mp[l->mapping] : NULL;
	const char *f = NULL;
	size_t fl = 0, b;
	uint64_t addr = l->address;
	char tmp[40];

	if (m)
		f = str(r, m->file, &fl);
	if (fl > 0) {
		for (b = fl; b > 0 && f[b - 1] != '/'; b--)
			;
		put(r, f + b, fl - b);
		if (addr >= m->start)
			addr = addr - m->start + m->offset;
		snprintf(tmp, sizeof tmp, "+0x%" PRIx64, addr);
	} else if (addr)
		snprintf(tmp, sizeof tmp, "0x%" PRIx64, addr);
	else
		snprintf(tmp, sizeof tmp, "[unknown]");
	put(r, tmp, strlen(tmp));
}

/* The frame of line ln of location l, interned. */
static uint32_t
frame(struct otlp_reader *r, const struct loc *l, const struct line *ln)
{
	const struct func *f = ln && ln->func > 0 && ln->func < r->nfn ?
	    &r->fn[ln->func] : NULL;
	const char *s = NULL, *file;
	size_t n = 0, fl;
	char tmp[32];

	r->namelen = 0;
	if (f && !(s = str(r, f->name, &n), n))
		s = str(r, f->sysname, &n);
	if (!f || (n == 0 && (l->address || l->mapping)))
		address_name(r, l);
	else {
		put(r, s, n);
		if (r->opt.filenames && (file = str(r, f->file, &fl)) && fl) {
			put(r, " ", 1);
			put(r, file, fl);
		}
		if (r->opt.lines && ln->line > 0) {
			snprintf(tmp, sizeof tmp, ":%" PRId64, ln->line);
			put(r, tmp, strlen(tmp));
		}
	}
	fold_frame_clean(r->name, r->namelen);
	return fold_intern(r->frames, r->name, r->namelen);
}

/*
 * The frames of stack si, root first, onto r->ids from n; the new count,
 * or 0 when the dictionary lacks the stack or one of its locations.
 */
static size_t
stack_frames(struct otlp_reader *r, uint32_t si, size_t n)
{
	size_t p, q, n0 = n;
	uint32_t li;
	const struct loc *l;

	if ((size_t)si + 1 >= r->stkoff.n)
		return 0;
	/* locations leaf first, each one's lines innermost first: turned */
	for (p = r->stkoff.v[si + 1]; p-- > r->stkoff.v[si]; ) {
		if ((li = r->stk.v[p]) >= r->nlc || n - n0 >= MAX_DEPTH)
			return 0;
		l = &r->lc[li];
		r->ids = fold_grow(r->ids, &r->idscap, n + l->nlines + 2,
		    sizeof *r->ids);
		if (l->nlines == 0) {
			if (r->lcid[li] == NONE)
				r->lcid[li] = frame(r, l, NULL);
			r->ids[n++] = r->lcid[li];
		}
		for (q = l->first + l->nlines; q-- > l->first; ) {
			if (r->lnid[q] == NONE)
				r->lnid[q] = frame(r, l, &r->ln[q]);
			r->ids[n++] = r->lnid[q];
		}
	}
	return n > n0 ? n : 0;
}

/*
 * Each value (in tags: offset, length) that key has among attributes
 * attrs[at..at+n); how many, from found on. fn NULL counts only.
 */
typedef int value_fn(struct otlp_reader *r, size_t off, size_t len, int i,
    void *arg);

static int
attr_values(struct otlp_reader *r, size_t at, size_t n, const char *key,
    size_t kl, int found, value_fn *fn, void *arg)
{
	const uint32_t *idx = r->attrs.v + at;
	const char *k;
	size_t i, l;

	for (i = 0; i < n; i++) {
		if (idx[i] >= r->nat || !(k = str(r, (uint32_t)r->at[idx[i]].key,
		    &l)) || l != kl || memcmp(k, key, kl) != 0)
			continue;
		if (fn(r, r->at[idx[i]].val, r->at[idx[i]].vlen, found++,
		    arg) < 0)
			return -1;
	}
	return found;
}

/*
 * Each value of key for sample sm: those its attributes give key, else
 * its profile's, else its resource's. How many, or -1 when fn failed.
 */
static int
each_value(struct otlp_reader *r, const struct sample *sm, const char *key,
    value_fn *fn, void *arg)
{
	size_t kl = strlen(key), i, a, b;
	uint32_t p = sm->prof, res = r->pres.v[p];
	int found = 0;

	if (sm->nattr)
		found = attr_values(r, sm->attr, sm->nattr, key, kl, 0, fn,
		    arg);
	if (found == 0 && r->pnattr.v[p])
		found = attr_values(r, r->pattr.v[p], r->pnattr.v[p], key, kl,
		    0, fn, arg);
	if (found == 0 && res < r->roff.n) {
		a = r->roff.v[res];
		b = res + 1 < r->roff.n ? r->roff.v[res + 1] : r->nrat;
		for (i = a; i < b && found >= 0; i++)
			if (r->rat[i].klen == kl && memcmp(r->tags +
			    r->rat[i].key, key, kl) == 0 && fn(r, r->rat[i].val,
			    r->rat[i].vlen, found++, arg) < 0)
				found = -1;
	}
	return found;
}

/* value_fn: onto the frame being made, after a comma but the first */
static int
put_value(struct otlp_reader *r, size_t off, size_t len, int i, void *arg)
{
	(void)arg;
	if (i)
		put(r, ",", 1);
	put(r, r->tags + off, len);
	return 0;
}

/* The frame "KEY=VALUE[,VALUE...]" of sample sm (each_value's values). */
static uint32_t
tag(struct otlp_reader *r, const struct sample *sm, const char *key)
{
	r->namelen = 0;
	put(r, key, strlen(key));
	put(r, "=", 1);
	each_value(r, sm, key, put_value, NULL);
	fold_frame_clean(r->name, r->namelen);
	return fold_intern(r->frames, r->name, r->namelen);
}

/* value_fn of a --tag-focus or --tag-ignore: 1 in *arg on a match */
struct match {
	const struct tagre *t;
	int matched;
};

static int
match_value(struct otlp_reader *r, size_t off, size_t len, int i, void *arg)
{
	struct match *m = arg;
	int rc;

	(void)i;
	if (m->matched)
		return 0;
	rc = pcre2_match(m->t->re, (PCRE2_SPTR)(r->tags + off), len, 0, 0,
	    r->md, NULL);
	/* a match limit is an error, not a sample left out */
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(rc, msg, sizeof msg);
		return fold_seterr("%s: tag %s '%s': matching '%.*s': %s",
		    r->file, m->t->ignore ? "ignore" : "focus", m->t->spec,
		    (int)(len > 60 ? 60 : len), r->tags + off,
		    (const char *)msg);
	}
	m->matched = rc >= 0;
	return 0;
}

/*
 * 1 when sample sm passes every --tag-focus and no --tag-ignore, 0 when
 * not, -1 with a message when a pattern cannot be matched.
 */
static int
keep(struct otlp_reader *r, const struct sample *sm)
{
	struct match m;
	size_t i;

	for (i = 0; i < r->nres; i++) {
		m.t = &r->res[i];
		m.matched = 0;
		if (each_value(r, sm, r->res[i].key, match_value, &m) < 0)
			return -1;
		if (m.matched == r->res[i].ignore)
			return 0;
	}
	return 1;
}

/* The end of the input: the samples of the chosen type, named, into st. */
static int
resolve(struct otlp_reader *r)
{
	uint32_t type = NONE, unit = NONE;
	size_t i, k, n, t, nt, other = 0, bad = 0, ntagids = 0;
	int tags = r->opt.ntag_root || r->opt.ntag_leaf || r->nres, kp;
	struct fold_stacks *keys = NULL;
	uint32_t *key = NULL, *tagids = NULL;
	char *kept = NULL;
	const char *s, *us;
	size_t sl, ul;
	struct fold_count c;
	int rc = 0;

	/* the type: --sample-index's, else the first profile's */
	for (i = 0; i < r->ptype.n && type == NONE; i++) {
		s = str(r, r->ptype.v[i], &sl);
		if (!r->opt.sample_index || (s && strlen(r->opt.sample_index)
		    == sl && memcmp(s, r->opt.sample_index, sl) == 0)) {
			type = r->ptype.v[i];
			unit = r->punit.v[i];
		}
	}
	if (type == NONE)
		return 0;
	r->matched = 1;
	us = str(r, unit, &ul);
	r->unitp = NULL;
	if (us && ul && ul <= FOLD_UNIT_MAX && fold_unit_valid(us, ul) &&
	    !(ul == 5 && memcmp(us, "count", 5) == 0) &&
	    !(ul == 7 && memcmp(us, "samples", 7) == 0)) {
		memcpy(r->unit, us, ul);
		r->unit[ul] = '\0';
		r->unitp = r->unit;
	}
	u32vec_push(&r->stkoff, (uint32_t)r->stk.n);
	r->lnid = fold_grow(r->lnid, &r->lnidcap, r->nln + 1, sizeof *r->lnid);
	memset(r->lnid, 0xff, (r->nln + 1) * sizeof *r->lnid);
	r->lcid = fold_grow(r->lcid, &r->lcidcap, r->nlc + 1, sizeof *r->lcid);
	memset(r->lcid, 0xff, (r->nlc + 1) * sizeof *r->lcid);
	/* without tags, the samples of a stack are added up first, by its
	   index; with them, each sample is a stack of its own */
	if (!tags) {
		size_t nst = r->stkoff.n - 1;
		uint64_t *acc = fold_calloc(nst + 1, sizeof *acc);
		size_t *cnt = fold_calloc(nst + 1, sizeof *cnt);
		for (i = 0; i < r->nsm; i++) {
			const struct sample *sm = &r->sm[i];
			if (r->ptype.v[sm->prof] != type ||
			    r->punit.v[sm->prof] != unit) {
				other++;
				continue;
			}
			k = sm->stack < nst ? sm->stack : nst;
			if (acc[k] + (uint64_t)sm->value < acc[k]) {
				free(acc);
				free(cnt);
				return fold_seterr("%s: a stack's value is out "
				    "of range", r->file), -2;
			}
			acc[k] += (uint64_t)sm->value;
			cnt[k]++;
		}
		bad += cnt[nst];	/* stacks the dictionary does not have */
		for (k = 0; k < nst && rc == 0; k++) {
			if (acc[k] == 0)
				continue;
			if ((n = stack_frames(r, (uint32_t)k, 0)) == 0) {
				bad += cnt[k];
				continue;
			}
			c = fold_count_u64(acc[k]);
			if (fold_stacks_add(r->st, r->ids, n, &c) < 0)
				rc = (fold_seterr("%s: %s", r->file,
				    fold_err()), -2);
		}
		free(acc);
		free(cnt);
	}
	/*
	 * The tag frames of a sample follow from its profile and its
	 * attribute indices: made once for each such list (a table of the
	 * lists, keys, and their frames, tagids, ntags a list).
	 */
	nt = r->opt.ntag_root + r->opt.ntag_leaf;
	if (tags) {
		keys = fold_stacks_new(r->frames, 1);
		key = fold_reallocarray(NULL, 1, sizeof *key);
	}
	for (i = 0; tags && i < r->nsm && rc == 0; i++) {
		const struct sample *sm = &r->sm[i];
		static const struct fold_count zero = FOLD_COUNT_INIT;
		long ki;
		if (r->ptype.v[sm->prof] != type ||
		    r->punit.v[sm->prof] != unit) {
			other++;
			continue;
		}
		key = fold_reallocarray(key, sm->nattr + 1, sizeof *key);
		key[0] = sm->prof;
		if (sm->nattr)
			memcpy(key + 1, r->attrs.v + sm->attr,
			    sm->nattr * sizeof *key);
		if ((ki = fold_stacks_add(keys, key, sm->nattr + 1,
		    &zero)) < 0) {
			rc = (fold_seterr("%s: %s", r->file, fold_err()), -2);
			break;
		}
		if ((size_t)ki >= ntagids) {
			kept = fold_reallocarray(kept, (size_t)ki + 1,
			    sizeof *kept);
			if ((kp = keep(r, sm)) < 0) {
				rc = -2;
				break;
			}
			kept[ki] = (char)kp;
			tagids = fold_reallocarray(tagids, (size_t)ki + 1,
			    (nt ? nt : 1) * sizeof *tagids);
			for (t = 0; t < nt; t++)
				tagids[(size_t)ki * nt + t] = t <
				    r->opt.ntag_root ? tag(r, sm,
				    r->opt.tag_root[t]) : tag(r, sm,
				    r->opt.tag_leaf[t - r->opt.ntag_root]);
			ntagids = (size_t)ki + 1;
		}
		if (!kept[ki])
			continue;	/* --tag-focus, --tag-ignore */
		n = r->opt.ntag_root;
		r->ids = fold_grow(r->ids, &r->idscap, n + 1, sizeof *r->ids);
		memcpy(r->ids, tagids + (size_t)ki * nt, n * sizeof *r->ids);
		if ((n = stack_frames(r, sm->stack, n)) == 0) {
			bad++;
			continue;
		}
		r->ids = fold_grow(r->ids, &r->idscap, n + r->opt.ntag_leaf,
		    sizeof *r->ids);
		for (t = r->opt.ntag_root; t < nt; t++)
			r->ids[n++] = tagids[(size_t)ki * nt + t];
		c = fold_count_u64((uint64_t)sm->value);
		if (fold_stacks_add(r->st, r->ids, n, &c) < 0)
			rc = (fold_seterr("%s: %s", r->file, fold_err()), -2);
	}
	if (tags) {
		fold_stacks_free(keys);
		free(key);
		free(tagids);
		free(kept);
	}
	if (rc < 0)
		return rc;
	if (bad)
		rc = warn(r, 0, "%zu %s a stack that the dictionary does not "
		    "have, or not all of whose locations: dropped", bad,
		    bad == 1 ? "sample names" : "samples name");
	if (rc == 0 && other)
		rc = warn(r, 0, "%zu %s of other sample types skipped "
		    "(choose with --sample-index)", other, other == 1 ?
		    "sample" : "samples");
	return rc;
}

/* An AnyValue of the protobuf as the text of a tag (see anyvalue). */
static size_t
pb_anyvalue(struct otlp_reader *r, const Otlp__AnyValue *v, size_t *n)
{
	char num[64];
	const char *s = "";
	size_t l = 0;

	if (v) {
		switch (v->value_case) {
		case OTLP__ANY_VALUE__VALUE_STRING_VALUE:
			s = v->string_value;
			l = strlen(s);
			break;
		case OTLP__ANY_VALUE__VALUE_BOOL_VALUE:
			s = v->bool_value ? "true" : "false";
			l = strlen(s);
			break;
		case OTLP__ANY_VALUE__VALUE_INT_VALUE:
			l = (size_t)snprintf(num, sizeof num, "%" PRId64,
			    v->int_value);
			s = num;
			break;
		case OTLP__ANY_VALUE__VALUE_DOUBLE_VALUE:
			/* as JSON writes it: the shortest that reads back */
			l = (size_t)snprintf(num, sizeof num, "%.17g",
			    v->double_value);
			s = num;
			break;
		case OTLP__ANY_VALUE__VALUE_STRING_VALUE_STRINDEX:
			if (v->string_value_strindex < 0 ||
			    !(s = str(r, (uint32_t)v->string_value_strindex,
			    &l)))
				s = "", l = 0;
			break;
		default:
			break;
		}
	}
	*n = l;
	return tag_text(r, s, l);
}

static uint32_t
pb_idx(int32_t i)
{
	return i < 0 ? NONE : (uint32_t)i;
}

/* A sample of the protobuf, as sample() takes one of the JSON. */
static int
pb_sample(struct otlp_reader *r, const Otlp__Sample *sm)
{
	struct sample *kept;
	size_t k;
	int bad = 0, rc;

	for (k = 0; k < sm->n_values; k++)
		bad |= sm->values[k] < 0;
	kept = add_sample(r, 0, sm->n_values, sm->n_values ? sm->values[0] :
	    0, bad, sm->n_timestamps_unix_nano, pb_idx(sm->stack_index), &rc);
	if (!kept)
		return rc;
	kept->nattr = (uint32_t)sm->n_attribute_indices;
	for (k = 0; k < sm->n_attribute_indices; k++)
		u32vec_push(&r->attrs, pb_idx(sm->attribute_indices[k]));
	return 0;
}

/*
 * The protobuf encoding, decoded whole (within --max-size), into the
 * same tables the JSON fills.
 */
static int
read_protobuf(struct otlp_reader *r, struct fold_in *in)
{
	struct pb_capalloc ca;
	struct pb_arena ar;
	Otlp__ProfilesData *pd;
	const Otlp__ProfilesDictionary *d;
	const char *buf;
	size_t len, i, k, m, q;
	uint64_t cap = r->opt.max_size ? r->opt.max_size : OTLP_MAX_SIZE;
	int rc = 0;

	if (fold_in_readall(in, &buf, &len) < 0)
		return -1;
	pb_capalloc_init(&ca, cap);
	pb_arena_init(&ar, &ca);
	pd = otlp__profiles_data__unpack(&ar.a, len, (const uint8_t *)buf);
	if (!pd) {
		rc = fold_seterr("%s: %s", r->file, ca.over ? "its decoded "
		    "messages pass --max-size" : "not OTLP profiles: not "
		    "the protobuf of a ProfilesData or an "
		    "ExportProfilesServiceRequest (nor OTLP/JSON)");
		goto done;
	}
	if (!(d = pd->dictionary)) {
		rc = fold_seterr("%s: not OTLP profiles of v1.8.0 or later: "
		    "no dictionary", r->file);
		goto done;
	}
	r->has_dict = 1;
	for (i = 0; i < d->n_string_table; i++)
		strtab_add(&r->strs, d->string_table[i],
		    strlen(d->string_table[i]));
	for (i = 0; i < d->n_function_table; i++) {
		const Otlp__Function *f = d->function_table[i];
		r->fn = fold_grow(r->fn, &r->fncap, r->nfn + 1, sizeof *r->fn);
		r->fn[r->nfn].name = pb_idx(f->name_strindex);
		r->fn[r->nfn].sysname = pb_idx(f->system_name_strindex);
		r->fn[r->nfn++].file = pb_idx(f->filename_strindex);
	}
	for (i = 0; i < d->n_mapping_table; i++) {
		const Otlp__Mapping *mp = d->mapping_table[i];
		r->mp = fold_grow(r->mp, &r->mpcap, r->nmp + 1, sizeof *r->mp);
		r->mp[r->nmp].file = pb_idx(mp->filename_strindex);
		r->mp[r->nmp].start = mp->memory_start;
		r->mp[r->nmp++].offset = mp->file_offset;
	}
	for (i = 0; i < d->n_location_table; i++) {
		const Otlp__Location *l = d->location_table[i];
		r->lc = fold_grow(r->lc, &r->lccap, r->nlc + 1, sizeof *r->lc);
		r->lc[r->nlc].mapping = pb_idx(l->mapping_index);
		r->lc[r->nlc].address = l->address;
		r->lc[r->nlc].first = (uint32_t)r->nln;
		for (k = 0; k < l->n_lines; k++) {
			r->ln = fold_grow(r->ln, &r->lncap, r->nln + 1,
			    sizeof *r->ln);
			r->ln[r->nln].func = pb_idx(l->lines[k]->function_index);
			r->ln[r->nln++].line = l->lines[k]->line;
		}
		r->lc[r->nlc].nlines = (uint32_t)l->n_lines;
		r->nlc++;
	}
	for (i = 0; i < d->n_stack_table; i++) {
		const Otlp__Stack *st = d->stack_table[i];
		u32vec_push(&r->stkoff, (uint32_t)r->stk.n);
		for (k = 0; k < st->n_location_indices; k++)
			u32vec_push(&r->stk, pb_idx(st->location_indices[k]));
	}
	for (i = 0; i < d->n_attribute_table; i++) {
		const Otlp__KeyValueAndUnit *a = d->attribute_table[i];
		r->at = fold_grow(r->at, &r->atcap, r->nat + 1, sizeof *r->at);
		r->at[r->nat].key = pb_idx(a->key_strindex);
		r->at[r->nat].klen = 0;
		r->at[r->nat].val = pb_anyvalue(r, a->value,
		    &r->at[r->nat].vlen);
		r->nat++;
	}
	for (i = 0; i < pd->n_resource_profiles && rc == 0; i++) {
		const Otlp__ResourceProfiles *rp = pd->resource_profiles[i];
		u32vec_push(&r->roff, (uint32_t)r->nrat);
		for (k = 0; rp->resource && k < rp->resource->n_attributes;
		    k++) {
			const Otlp__KeyValue *kv = rp->resource->attributes[k];
			const char *ks = kv->key;
			size_t kl = strlen(ks);
			if (kl == 0 && (!(ks = str(r, pb_idx(kv->key_strindex),
			    &kl))))
				ks = "", kl = 0;
			r->rat = fold_grow(r->rat, &r->ratcap, r->nrat + 1,
			    sizeof *r->rat);
			r->rat[r->nrat].key = tag_text(r, ks, kl);
			r->rat[r->nrat].klen = kl;
			r->rat[r->nrat].val = pb_anyvalue(r, kv->value,
			    &r->rat[r->nrat].vlen);
			r->nrat++;
		}
		for (k = 0; k < rp->n_scope_profiles; k++) {
			const Otlp__ScopeProfiles *sp = rp->scope_profiles[k];
			for (m = 0; m < sp->n_profiles; m++) {
				const Otlp__Profile *pf = sp->profiles[m];
				u32vec_push(&r->ptype, pf->sample_type ?
				    pb_idx(pf->sample_type->type_strindex) : 0);
				u32vec_push(&r->punit, pf->sample_type ?
				    pb_idx(pf->sample_type->unit_strindex) : 0);
				u32vec_push(&r->pres, (uint32_t)r->roff.n - 1);
				u32vec_push(&r->pattr, (uint32_t)r->attrs.n);
				u32vec_push(&r->pnattr,
				    (uint32_t)pf->n_attribute_indices);
				for (q = 0; q < pf->n_attribute_indices; q++)
					u32vec_push(&r->attrs,
					    pb_idx(pf->attribute_indices[q]));
				for (q = 0; q < pf->n_samples && rc == 0; q++)
					rc = pb_sample(r, pf->samples[q]);
			}
		}
	}
done:
	if (pd)
		otlp__profiles_data__free_unpacked(pd, &ar.a);
	pb_arena_release(&ar);
	return rc;
}

/*
 * Whether an input is OTLP/JSON rather than the protobuf: blanks, '{',
 * blanks and '"' or '}'. (The protobuf of a ProfilesData begins with a
 * newline byte too, field 1's key, but seldom with the rest.) A head of
 * blanks only is left to the JSON reader, which says what is wrong.
 */
static int
is_json(const char *head, size_t n)
{
	const char *p = json_start(head, n, NULL), *q;

	if (!p)
		return 1;
	if (*p != '{')
		return 0;
	q = json_start(p + 1, n - (size_t)(p + 1 - head), NULL);
	return !q || *q == '"' || *q == '}';
}

static int
otlp_read(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct otlp_reader *r = rp;
	int rc;
	const char *head;
	size_t n;

	r->file = fold_in_name(in);
	r->diag = diag;
	r->top = r->has_dict = 0;
	memset(r->key, 0, sizeof r->key);
	strtab_clear(&r->strs);
	r->nfn = r->nlc = r->nln = r->nmp = r->nsm = 0;
	r->stk.n = r->stkoff.n = r->ptype.n = r->punit.n = 0;
	r->tlen = r->nat = r->nrat = 0;
	r->roff.n = r->pres.n = r->pattr.n = r->pnattr.n = r->attrs.n = 0;
	fold_in_set_limit(in, r->opt.max_size ? r->opt.max_size :
	    OTLP_MAX_SIZE);
	if (fold_in_peek(in, 4096, &head, &n) < 0)
		return -1;
	if (n > 0 && !is_json(head, n)) {
		if ((rc = read_protobuf(r, in)) == 0)
			rc = resolve(r);
		return rc;
	}
	if (!r->json)
		r->json = json_new(on, r);
	rc = json_read(r->json, in);
	if (rc == 0 && !r->top)
		rc = fold_seterr_at(r->file, 1, "not OTLP profiles: a JSON "
		    "object expected");
	if (rc == 0 && !r->has_dict)
		rc = fold_seterr("%s: not OTLP profiles of v1.8.0 or later: "
		    "no \"dictionary\"", r->file);
	if (rc == 0)
		rc = resolve(r);
	return rc;
}

static const char *
otlp_unit(const void *rp)
{
	return ((const struct otlp_reader *)rp)->unitp;
}

static uint64_t
otlp_records(const void *rp)
{
	return ((const struct otlp_reader *)rp)->records;
}

static int
otlp_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct otlp_reader *r = rp;
	char msg[512];

	if (ok && r->opt.sample_index && !r->matched) {
		snprintf(msg, sizeof msg, "no profile of sample type \"%s\"",
		    r->opt.sample_index);
		say(arg, msg);
		return -1;
	}
	return 0;
}

#define OFF(field) offsetof(struct otlp_opt, field)

static const struct fold_option otlp_options[] = {
	{ .name = "filenames", .kind = FOLD_OPT_FLAG, .off = OFF(filenames),
	    .value = 1, .help = "append \" FILE\" to each frame" },
	{ .name = "lines", .kind = FOLD_OPT_FLAG, .off = OFF(lines),
	    .value = 1, .help = "append \":LINE\" to each frame" },
	{ .name = "max-size", .arg = "BYTES", .kind = FOLD_OPT_SIZE,
	    .off = OFF(max_size),
	    .help = "refuse an input larger than BYTES (K, M, G, T)" },
	{ .name = "sample-index", .arg = "NAME", .kind = FOLD_OPT_STRING,
	    .off = OFF(sample_index), .reject = "", .what = "a sample type",
	    .help = "write the values of this sample type" },
	{ .name = "tag-focus", .arg = "KEY=REGEX", .kind = FOLD_OPT_LIST,
	    .off = OFF(tag_focus), .countoff = OFF(ntag_focus),
	    .help = "keep samples with an attribute KEY matching REGEX" },
	{ .name = "tag-ignore", .arg = "KEY=REGEX", .kind = FOLD_OPT_LIST,
	    .off = OFF(tag_ignore), .countoff = OFF(ntag_ignore),
	    .help = "drop samples with an attribute KEY matching REGEX" },
	{ .name = "tag-leaf", .arg = "KEY[,KEY...]", .kind = FOLD_OPT_KEYS,
	    .off = OFF(tag_leaf), .countoff = OFF(ntag_leaf),
	    .help = "put a \"KEY=VALUE\" frame of each attribute at the leaf" },
	{ .name = "tag-root", .arg = "KEY[,KEY...]", .kind = FOLD_OPT_KEYS,
	    .off = OFF(tag_root), .countoff = OFF(ntag_root),
	    .help = "put a \"KEY=VALUE\" frame of each attribute at the root" },
	{ .name = NULL }
};

#undef OFF

static const struct otlp_opt otlp_defaults = OTLP_OPT_INIT;

const struct format otlp_format = {
	.id = &otlp_id,
	.kind = FOLD_DOCUMENT,
	.one = "entry",
	.many = "entries",
	.options = otlp_options,
	.optsize = sizeof(struct otlp_opt),
	.defaults = &otlp_defaults,
	.open = otlp_open,
	.read = otlp_read,
	.unit = otlp_unit,
	.records = otlp_records,
	.finish = otlp_finish,
	.close = otlp_close,
};
