#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "formats/pbutil.h"
#include "libfold/folded.h"
#include "formats/pprof.h"
#include "formats/pprofdec.h"
#include "formats/profile.pb-c.h"
#include "libfold/err.h"
#include "libfold/hash.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/unit.h"

#define NOSTACK "[no stack]"

/* Decoded tables at least this large are given back when freed. */
#define TRIM_MIN ((uint64_t)1 << 20)

/* The bytes of samples read that are given back at a time. */
#define RELEASE ((size_t)1 << 20)

/* A growable byte buffer. */
struct buf {
	char *p;
	size_t len, cap;
};

static inline void
buf_add(struct buf *b, const void *s, size_t n)
{
	const char *c = s;
	char *d;

	if (n == 0)	/* b->p may still be NULL */
		return;
	if (n > b->cap - b->len)
		b->p = fold_grow(b->p, &b->cap, b->len + n, 1);
	d = b->p + b->len;
	b->len += n;
	if (n > 8) {
		memcpy(d, c, n);
		return;
	}
	while (n--)		/* most keys of a location: a byte or two */
		*d++ = *c++;
}

static void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

/*
 * Adds s with ';' made ':' and newlines made spaces: a folded frame. A
 * '\r' stays: the count always follows a name, so it never ends a line.
 */
static void
buf_addname(struct buf *b, const char *s, size_t n)
{
	char *p, *end;

	if (n == 0)
		return;
	buf_add(b, s, n);
	/* names seldom hold either: two memchr scans cost less than a test
	   of every byte (a twentieth of reading a small profile) */
	end = b->p + b->len;
	for (p = end - n; (p = memchr(p, ';', end - p)) != NULL; p++)
		*p = ':';
	for (p = end - n; (p = memchr(p, '\n', end - p)) != NULL; p++)
		*p = ' ';
}

/* Frame ids are stored varint-coded: most take one or two bytes. */
static void
buf_addvar(struct buf *b, uint32_t v)
{
	uint8_t t[5];
	size_t n = 0;

	while (v >= 0x80) {
		t[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	t[n++] = (uint8_t)v;
	buf_add(b, t, n);
}

static uint32_t
getvar(const uint8_t **p)
{
	uint32_t v = 0;
	int shift = 0;
	uint8_t c;

	do {
		c = *(*p)++;
		v |= (uint32_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

struct tagre {
	const char *key;
	size_t keylen;
	pcre2_code *re;
	int ignore;
};

/*
 * A distinct stack: its key's offset in keys << 24 | its length, and the
 * magnitude of its net value (negative when its bit in the reader's neg
 * is set: a delta profile's values may be of either sign, and their sums
 * need 65 bits).
 */
struct ent {
	uint64_t offlen;
	uint64_t count;
};

#define KEYLEN_MAX 0xffffff
#define ENT_OFF(e) ((e)->offlen >> 24)
#define ENT_LEN(e) ((size_t)((e)->offlen & KEYLEN_MAX))

struct pprof_reader {
	struct pprof_readopt opt;
	struct fold_intern *frames;
	struct tagre *res;
	size_t nres;
	pcre2_match_data *md;

	int nread;		/* profiles read */
	uint64_t nsamples;	/* the samples of those */
	uint64_t added;		/* samples added, of any profile */
	uint64_t mass;		/* the sum of their magnitudes, or 2^64-1 */
	size_t ntypes;
	char **types;		/* "type/unit" of the first profile */
	size_t index;		/* the selected sample type */
	char unit[FOLD_UNIT_MAX + 1];	/* pprof_unit's, for a count */
	int64_t *totals;	/* per type, for pprof_list */

	/* the distinct stacks: varint-coded frame ids, root first */
	struct buf keys;
	struct ent *ents;
	size_t nents, capents;
	unsigned char *neg;	/* per entry: count is negative; NULL: none */
	char *negfile;		/* the first profile with a negative value */
	uint32_t *slots;	/* entry index + 1; 0: empty */
	size_t mask;

	struct buf key, name, label;	/* scratch */
	struct pp_str *names;	/* frame names by id, while writing */

	/*
	 * Decoding memory, kept from one profile to the next (a fleet has
	 * thousands of small ones): a profile's tables, then its samples one
	 * at a time.
	 */
	struct pprof_dec dec;
};

/* One profile being read. */
struct prof {
	const char *file;
	const uint8_t *buf;
	size_t len;
	struct pprof_dec *d;	/* the reader's */
	int64_t default_type;
	size_t nsamples;
	/* where the first sample starts and the last one ends: pass 2
	   frames only that (producers write the samples together) */
	size_t sample0, sample1;
	size_t other;		/* a field after the first sample, + 1 */
	int once;		/* buf is read once, by this reading */
	int unchecked;		/* pb_profile_readall's check not made */
	struct pb_idmap mapids, locids, funcids;
	/* location i's frames, varint-coded, root first */
	struct buf lkeys;
	uint64_t *lkoff;
};

/*
 * Once every location has its frames, the decoded tables are no longer
 * needed: they go before the samples are read, and when they were large
 * the memory goes back to the system (glibc keeps freed small blocks
 * otherwise). Not for small ones: trimming costs a third of a millisecond,
 * as much as reading a small profile, and a fleet has thousands.
 */
static void
free_tables(struct prof *pf)
{
	int large = pf->d->used >= TRIM_MIN;

	pprof_dec_drop_tables(pf->d, large);
#ifdef __GLIBC__
	if (large)
		malloc_trim(0);
#endif
}

static void
prof_release(struct prof *pf)
{
	pb_idmap_free(&pf->mapids);
	pb_idmap_free(&pf->locids);
	pb_idmap_free(&pf->funcids);
	free(pf->lkeys.p);
	free(pf->lkoff);
}

struct field {
	uint32_t num;
	int wt;
	uint64_t v;		/* PB_WT_VARINT */
	const uint8_t *data;	/* PB_WT_LEN */
	size_t len;
	size_t off;		/* where the field starts */
};

/*
 * Frames the next field of the top-level message at *pos: its number,
 * wire type and payload (the payload itself is decoded by pprofdec.h).
 * Returns 1, 0 at the end, or -1 with a message.
 */
static int
next_field_slow(const struct prof *pf, size_t *pos, struct field *f)
{
	const uint8_t *p = pf->buf;
	size_t n = pf->len;
	uint64_t key, len;

	if (*pos >= n)
		return 0;
	f->off = *pos;
	if (pb_varint(p, n, pos, &key) < 0)
		goto truncated;
	f->num = key >> 3 > UINT32_MAX ? UINT32_MAX : (uint32_t)(key >> 3);
	f->wt = key & 7;
	if (f->num == 0)
		return fold_seterr("%s: not a pprof profile: field number 0 at "
		    "byte %zu", pf->file, f->off);
	switch (f->wt) {
	case PB_WT_VARINT:
		if (pb_varint(p, n, pos, &f->v) < 0)
			goto truncated;
		return 1;
	case PB_WT_I64:
	case PB_WT_I32:
		len = f->wt == PB_WT_I64 ? 8 : 4;
		if (n - *pos < len)
			goto truncated;
		*pos += len;
		return 1;
	case PB_WT_LEN:
		if (pb_varint(p, n, pos, &len) < 0)
			goto truncated;
		if (len > n - *pos)
			return fold_seterr("%s: not a pprof profile: field %u at "
			    "byte %zu has length %" PRIu64 ", past the end "
			    "(%zu bytes)", pf->file, f->num, f->off, len, n);
		f->data = p + *pos;
		f->len = len;
		*pos += len;
		return 1;
	default:
		return fold_seterr("%s: not a pprof profile: invalid wire type "
		    "%d at byte %zu", pf->file, f->wt, f->off);
	}
truncated:
	return fold_seterr("%s: not a pprof profile: truncated at byte %zu",
	    pf->file, f->off);
}

/*
 * next_field_slow, most fields at a glance (pb_short_field): framing
 * every field of a small profile twice in full was a tenth of reading
 * it.
 */
static inline int
next_field(const struct prof *pf, size_t *pos, struct field *f)
{
	size_t size;
	unsigned num, v;
	int wt;

	if (*pos >= pf->len || !(size = pb_short_field(pf->buf + *pos,
	    pf->len - *pos, &num, &wt, &v)))
		return next_field_slow(pf, pos, f);
	f->off = *pos;
	f->num = num;
	f->wt = wt;
	if (wt == PB_WT_VARINT) {
		f->v = v;
	} else {
		f->data = pf->buf + *pos + 2;
		f->len = v;
	}
	*pos += size;
	return 1;
}

static int
decode_error(const struct prof *pf, const char *what, size_t off)
{
	if (pf->d->over)
		return fold_seterr("%s: decoding needs more than %" PRIu64
		    " bytes of memory (see --max-size)", pf->file, pf->d->max);
	return fold_seterr("%s: malformed %s at byte %zu", pf->file, what,
	    off);
}

/* String i of the table, or NULL with a message naming what uses it. */
static const struct pp_str *
str_at(const struct prof *pf, int64_t i, const char *what, uint64_t id)
{
	if (i < 0 || (uint64_t)i >= pf->d->string_table.n) {
		fold_seterr("%s: %s %" PRIu64 ": string index %" PRId64
		    " out of range (%zu strings)", pf->file, what, id, i,
		    pf->d->string_table.n);
		return NULL;
	}
	return &pf->d->string_table.p[i];
}

/* Pass 1: everything but the samples. */
static int
read_tables(struct prof *pf)
{
	static const char *const what[] = { [PP_SAMPLE_TYPE] = "sample type",
	    [PP_MAPPING] = "mapping", [PP_LOCATION] = "location",
	    [PP_FUNCTION] = "function", [PP_STRING_TABLE] = "string" };
	const struct pprof_dec *d = pf->d;
	size_t pos = 0;
	struct field f;
	int r;

	while ((r = next_field(pf, &pos, &f)) > 0) {
		int want = pb_profile_want(f.num, f.wt);
		if (want < 0)		/* a newer field: skipped */
			continue;
		if (f.wt != want)
			return fold_seterr("%s: not a pprof profile: field %u "
			    "at byte %zu has wire type %d, not %d", pf->file,
			    f.num, f.off, f.wt, want);
		if (f.num != PP_SAMPLE && pf->nsamples > 0 && !pf->other)
			pf->other = f.off + 1;
		switch (f.num) {
		case PP_SAMPLE:
			if (pf->nsamples++ == 0)
				pf->sample0 = f.off;
			pf->sample1 = pos;
			break;
		case PP_SAMPLE_TYPE: case PP_MAPPING: case PP_LOCATION:
		case PP_FUNCTION: case PP_STRING_TABLE:
			if (pprof_decode_field(pf->d, f.num, f.data, f.len) < 0)
				return decode_error(pf, what[f.num], f.off);
			break;
		case PP_DEFAULT_SAMPLE_TYPE:
			pf->default_type = (int64_t)f.v;
			break;
		}
	}
	if (r < 0)
		return -1;
	if (d->sample_type.n == 0)
		return fold_seterr("%s: not a pprof profile: no sample types",
		    pf->file);
	if (d->string_table.n == 0 || d->string_table.p[0].n != 0)
		return fold_seterr("%s: string table does not start with \"\"",
		    pf->file);
	return 0;
}

/* Interns the name in r->name and adds its id to key; the id. */
static uint32_t
add_frame(struct pprof_reader *r, struct buf *key)
{
	uint32_t id = fold_intern(r->frames, r->name.p, r->name.len);

	buf_addvar(key, id);
	return id;
}

/* Puts "module+0xOFFSET", "0xADDRESS" or "[unknown]" in r->name. */
static int
address_name(struct pprof_reader *r, const struct prof *pf,
    const struct pp_location *loc)
{
	const struct pp_mapping *m = NULL;
	const struct pp_str *file = NULL;
	char tmp[40];
	uint64_t addr = loc->address;
	long mi;

	r->name.len = 0;
	if (loc->mapping_id) {
		if ((mi = pb_idmap_find(&pf->mapids, loc->mapping_id)) < 0)
			return fold_seterr("%s: location %" PRIu64 ": no mapping "
			    "with id %" PRIu64, pf->file, loc->id,
			    loc->mapping_id);
		m = &pf->d->mapping.p[mi];
		if (!(file = str_at(pf, m->filename, "mapping", m->id)))
			return -1;
	}
	if (file && file->n > 0) {
		size_t b = file->n;
		while (b > 0 && file->p[b - 1] != '/')
			b--;
		if (b == file->n)
			b = 0;
		buf_addname(&r->name, file->p + b, file->n - b);
		if (addr >= m->memory_start)
			addr = addr - m->memory_start + m->file_offset;
		snprintf(tmp, sizeof tmp, "+0x%" PRIx64, addr);
	} else if (addr) {
		snprintf(tmp, sizeof tmp, "0x%" PRIx64, addr);
	} else {
		snprintf(tmp, sizeof tmp, "[unknown]");
	}
	buf_add(&r->name, tmp, strlen(tmp));
	return 0;
}

/*
 * Puts the frame name of line ln of loc in r->name: 0, or -1 with a
 * message. Or, when the frame is the function's name as it is, and a
 * frame of the run already (as most are, after a fleet's first
 * profile), puts its id in *id and returns 1: no frame holds ';' or a
 * newline, so a name found as it is needs none of them changed. *fi is
 * the function's index when the frame is made of its name alone, the
 * same for every line of it; else -1. fid holds the id + 1 of each such
 * frame made before (0: not yet), taken as found.
 */
static int
line_name(struct pprof_reader *r, const struct prof *pf,
    const struct pp_location *loc, const struct pp_line *ln,
    const uint32_t *fid, uint32_t *id, long *fi)
{
	const struct pp_str *name, *file;
	const struct pp_function *fn;
	char tmp[32];
	long i;

	*fi = -1;
	if (!ln || !ln->function_id)
		return address_name(r, pf, loc);
	if ((i = pb_idmap_find(&pf->funcids, ln->function_id)) < 0)
		return fold_seterr("%s: location %" PRIu64 ": no function with "
		    "id %" PRIu64, pf->file, loc->id, ln->function_id);
	if (fid[i]) {	/* checked and made at another line */
		*id = fid[i] - 1;
		return 1;
	}
	fn = &pf->d->function.p[i];
	if (!(name = str_at(pf, fn->name, "function", fn->id)) ||
	    !str_at(pf, fn->system_name, "function", fn->id) ||
	    !(file = str_at(pf, fn->filename, "function", fn->id)))
		return -1;
	if (name->n == 0)
		name = &pf->d->string_table.p[fn->system_name];
	/* a function named "" with no address to show instead is the
	   frame "" (a folded name like any other: folded2pprof writes it) */
	if (name->n == 0 && (loc->address || loc->mapping_id))
		return address_name(r, pf, loc);
	/* "" is the frame of a location with no address only */
	if (!r->opt.filenames && !r->opt.lines && name->n > 0)
		*fi = i;
	if (!(r->opt.filenames && file->n > 0) && !(r->opt.lines &&
	    ln->line > 0) && (*id = fold_intern_find(r->frames, name->p,
	    name->n)) != FOLD_NOFRAME)
		return 1;
	r->name.len = 0;
	buf_addname(&r->name, name->p, name->n);
	if (r->opt.filenames && file->n > 0) {
		buf_addc(&r->name, ' ');
		buf_addname(&r->name, file->p, file->n);
	}
	if (r->opt.lines && ln->line > 0) {
		snprintf(tmp, sizeof tmp, ":%" PRId64, ln->line);
		buf_add(&r->name, tmp, strlen(tmp));
	}
	return 0;
}

/*
 * Every location's frames, varint-coded, root (the caller) first. A
 * frame that is its function's name alone is the same at every line of
 * the function: its id is kept for the others (a Go profile has two
 * lines a function).
 */
static int
resolve_locations(struct pprof_reader *r, struct prof *pf)
{
	const struct pprof_dec *d = pf->d;
	const struct pp_line *ln;
	uint32_t id = 0, *fid;
	size_t i, j;
	long fi;
	int rc = 0;

	pf->lkoff = fold_reallocarray(NULL, d->location.n + 1,
	    sizeof *pf->lkoff);
	/* the id + 1 of each function's frame, 0: not yet */
	fid = fold_calloc(d->function.n + 1, sizeof *fid);
	for (i = 0; i < d->location.n; i++) {
		const struct pp_location *loc = &d->location.p[i];
		pf->lkoff[i] = pf->lkeys.len;
		if (loc->n_line == 0) {
			if ((rc = address_name(r, pf, loc)) < 0)
				goto out;
			add_frame(r, &pf->lkeys);
		}
		for (j = loc->n_line; j-- > 0;) {
			ln = &d->line.p[loc->line0 + j];
			if ((rc = line_name(r, pf, loc, ln, fid, &id, &fi)) < 0)
				goto out;
			if (rc == 0)
				id = add_frame(r, &pf->lkeys);
			else
				buf_addvar(&pf->lkeys, id);
			if (fi >= 0)
				fid[fi] = id + 1;
		}
	}
	pf->lkoff[i] = pf->lkeys.len;
	rc = 0;
out:
	free(fid);
	return rc;
}

/* "a/u, b/u" in b, NUL terminated. */
static void
join_types(struct buf *b, char **types, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			buf_add(b, ", ", 2);
		buf_add(b, types[i], strlen(types[i]));
	}
	buf_addc(b, '\0');
}

/* The sample types: the first profile sets them and the selected index,
   the others must have the same. */
static int
check_types(struct pprof_reader *r, const struct prof *pf)
{
	size_t i, n = pf->d->sample_type.n;
	char **types = fold_calloc(n, sizeof *types);
	int rc = -1;

	for (i = 0; i < n; i++) {
		const struct pp_valuetype *vt = &pf->d->sample_type.p[i];
		const struct pp_str *t, *u;
		if (!(t = str_at(pf, vt->type, "sample type", i + 1)) ||
		    !(u = str_at(pf, vt->unit, "sample type", i + 1)))
			goto out;
		types[i] = fold_malloc(t->n + u->n + 2);
		memcpy(types[i], t->p, t->n);
		types[i][t->n] = '/';
		memcpy(types[i] + t->n + 1, u->p, u->n);
		types[i][t->n + 1 + u->n] = '\0';
	}
	if (r->types) {
		for (i = 0; i < n && n == r->ntypes; i++)
			if (strcmp(types[i], r->types[i]) != 0)
				break;
		if (n != r->ntypes || i < n) {
			struct buf a = { 0, 0, 0 }, b = { 0, 0, 0 };
			join_types(&a, types, n);
			join_types(&b, r->types, r->ntypes);
			fold_seterr("%s: sample types %s differ from the first "
			    "profile's (%s)", pf->file, a.p, b.p);
			free(a.p);
			free(b.p);
			goto out;
		}
		rc = 0;
		goto out;
	}
	/*
	 * The first profile's: they are the run's once the selected one is
	 * found in them (a profile without it fails, and the next is
	 * checked as the first).
	 */
	size_t index = n - 1;
	const char *want = r->opt.sample_index;
	const struct pp_str *def = NULL;
	if (!want && pf->default_type != 0 &&
	    !(def = str_at(pf, pf->default_type, "default sample type", 0)))
		goto out;
	if (want && want[0] && strspn(want, "0123456789") == strlen(want)) {
		unsigned long long k = strtoull(want, NULL, 10);
		if (k >= n) {
			fold_seterr("%s: sample index %s out of range (%zu "
			    "sample types)", pf->file, want, n);
			goto out;
		}
		index = (size_t)k;
	} else {
		for (i = 0; i < n; i++) {
			const char *t = types[i];
			size_t tl = strcspn(t, "/");
			if (want && (strcmp(want, t) == 0 ||
			    (strlen(want) == tl && memcmp(want, t, tl) == 0)))
				break;
			if (def && def->n == tl && memcmp(def->p, t, tl) == 0)
				break;
		}
		if (i < n) {
			index = i;
		} else if (want) {
			struct buf b = { 0, 0, 0 };
			join_types(&b, types, n);
			fold_seterr("%s: no sample type %s (the profile has "
			    "%s)", pf->file, want, b.p);
			free(b.p);
			goto out;
		}
	}
	r->types = types;
	r->ntypes = n;
	r->index = index;
	r->totals = fold_calloc(n, sizeof *r->totals);
	return 0;
out:
	for (i = 0; i < n && types; i++)
		free(types[i]);
	free(types);
	return rc;
}

/* Puts label l's value in r->label: the string, or the number and unit. */
static void
label_value(struct pprof_reader *r, const struct prof *pf,
    const struct pp_label *l)
{
	const struct pp_str *strs = pf->d->string_table.p;
	char tmp[32];

	r->label.len = 0;
	if (l->str) {
		buf_add(&r->label, strs[l->str].p, strs[l->str].n);
		return;
	}
	snprintf(tmp, sizeof tmp, "%" PRId64, l->num);
	buf_add(&r->label, tmp, strlen(tmp));
	if (strs[l->num_unit].n > 0) {
		buf_addc(&r->label, ' ');
		buf_add(&r->label, strs[l->num_unit].p, strs[l->num_unit].n);
	}
}

static int
label_has_key(const struct prof *pf, const struct pp_label *l,
    const char *key, size_t keylen)
{
	const struct pp_str *k = &pf->d->string_table.p[l->key];

	/* as pprof: a label with neither string nor number is none */
	if (!l->str && !l->num && !l->num_unit)
		return 0;
	return k->n == keylen && memcmp(k->p, key, keylen) == 0;
}

/*
 * 1 when the sample passes every --tag-focus and no --tag-ignore, 0 when
 * not, -1 with a message when a pattern cannot be matched (match limit).
 */
static int
keep_sample(struct pprof_reader *r, const struct prof *pf,
    const struct pp_sample *s)
{
	const struct pp_label *lab = &pf->d->label.p[s->lab0];
	size_t i, j;
	int rc;

	for (i = 0; i < r->nres; i++) {
		const struct tagre *t = &r->res[i];
		int match = 0;
		for (j = 0; j < s->n_label && !match; j++) {
			if (!label_has_key(pf, &lab[j], t->key, t->keylen))
				continue;
			label_value(r, pf, &lab[j]);
			rc = pcre2_match(t->re, (PCRE2_SPTR)r->label.p,
			    r->label.len, 0, 0, r->md, NULL);
			/* a match limit is an error, not a sample left out */
			if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
				PCRE2_UCHAR msg[256];
				pcre2_get_error_message(rc, msg, sizeof msg);
				return fold_seterr("%s: tag %s '%.*s': matching "
				    "'%.*s%s': %s", pf->file, t->ignore ?
				    "ignore" : "focus", (int)t->keylen, t->key,
				    FOLD_CUT(r->label.p, r->label.len),
				    (const char *)msg);
			}
			match = rc >= 0;
		}
		if (match == t->ignore)
			return 0;
	}
	return 1;
}

/* Adds the frame "KEY=VALUE[,VALUE...]" of sample s to r->key. */
static void
add_tag(struct pprof_reader *r, const struct prof *pf,
    const struct pp_sample *s, const char *key)
{
	const struct pp_label *lab = &pf->d->label.p[s->lab0];
	size_t j, keylen = strlen(key);
	int n = 0;

	r->name.len = 0;
	buf_addname(&r->name, key, keylen);
	buf_addc(&r->name, '=');
	for (j = 0; j < s->n_label; j++) {
		if (!label_has_key(pf, &lab[j], key, keylen))
			continue;
		if (n++)
			buf_addc(&r->name, ',');
		label_value(r, pf, &lab[j]);
		buf_addname(&r->name, r->label.p, r->label.len);
	}
	add_frame(r, &r->key);
}

static void
rehash(struct pprof_reader *r, size_t mask)
{
	size_t i, j;

	free(r->slots);
	r->mask = mask;
	r->slots = fold_calloc(mask + 1, sizeof *r->slots);
	for (i = 0; i < r->nents; i++) {
		const struct ent *e = &r->ents[i];
		uint32_t h = (uint32_t)fold_hash(r->keys.p + ENT_OFF(e),
		    ENT_LEN(e));
		for (j = h & mask; r->slots[j]; j = (j + 1) & mask)
			;
		r->slots[j] = (uint32_t)i + 1;
	}
}

/*
 * Adds the value of sign neg and magnitude v to the net value of entry i,
 * exactly: -1 with a message when its magnitude would pass 2^64-1.
 */
static int
add_value(struct pprof_reader *r, const char *file, size_t i, int neg,
    uint64_t v)
{
	struct ent *e = &r->ents[i];
	int eneg = r->neg && r->neg[i];

	if (eneg == neg) {
		if (e->count > UINT64_MAX - v)
			return fold_seterr("%s: count overflow (a stack's "
			    "total passes 2^64-1)", file);
		e->count += v;
	} else if (v <= e->count) {
		e->count -= v;
	} else {
		e->count = v - e->count;
		eneg = neg;
	}
	if (eneg && e->count == 0)
		eneg = 0;
	if (eneg || r->neg)
		r->neg[i] = (unsigned char)eneg;
	return 0;
}

/*
 * Adds the value of sign neg and magnitude mag to the stack in r->key,
 * read from file.
 */
static int
add_key(struct pprof_reader *r, const char *file, int neg, uint64_t mag)
{
	const char *key = r->key.p;
	size_t n = r->key.len, j;
	uint32_t h = (uint32_t)fold_hash(key, n);
	struct ent *e;

	if (neg && !r->neg) {
		r->neg = fold_calloc(r->capents + 1, 1);
		r->negfile = fold_strdup(file);
	}
	/* no stack's magnitude is more than the sum of every one added */
	r->mass = r->mass > UINT64_MAX - mag ? UINT64_MAX : r->mass + mag;
	for (j = h & r->mask; r->slots[j]; j = (j + 1) & r->mask) {
		e = &r->ents[r->slots[j] - 1];
		if (ENT_LEN(e) == n &&
		    memcmp(r->keys.p + ENT_OFF(e), key, n) == 0)
			return add_value(r, file, r->slots[j] - 1, neg, mag);
	}
	if (n > KEYLEN_MAX)
		return fold_seterr("%s: a stack of more than %d frames",
		    file, KEYLEN_MAX / 5);
	if (r->keys.len + n + (r->nents + 1) * (sizeof *e + 8) >
	    r->opt.max_size || r->nents >= UINT32_MAX - 1)
		return fold_seterr("%s: the stacks need more than %" PRIu64
		    " bytes of memory (see --max-size)", file,
		    r->opt.max_size);
	if (r->nents == r->capents) {
		size_t cap = r->capents ? 2 * r->capents : 1024;
		r->ents = fold_reallocarray(r->ents, cap, sizeof *r->ents);
		if (r->neg) {
			r->neg = fold_realloc(r->neg, cap + 1);
			memset(r->neg + r->capents, 0, cap + 1 - r->capents);
		}
		r->capents = cap;
	}
	e = &r->ents[r->nents];
	e->offlen = (uint64_t)r->keys.len << 24 | n;
	e->count = mag;
	if (r->neg)
		r->neg[r->nents] = (unsigned char)neg;
	buf_add(&r->keys, key, n);
	r->slots[j] = (uint32_t)++r->nents;
	if (r->nents * 4 > r->mask * 3)
		rehash(r, 2 * r->mask + 1);
	return 0;
}

/* Adds v to the stack in r->key. */
static int
add_stack(struct pprof_reader *r, const struct prof *pf, int64_t v)
{
	/* the magnitude of v, INT64_MIN's too */
	uint64_t mag = v < 0 ? (uint64_t)-(v + 1) + 1 : (uint64_t)v;

	return add_key(r, pf->file, v < 0, mag);
}

static int
check_labels(const struct prof *pf, const struct pp_sample *s, size_t no)
{
	size_t j;

	for (j = 0; j < s->n_label; j++) {
		const struct pp_label *l = &pf->d->label.p[s->lab0 + j];
		if (!str_at(pf, l->key, "sample", no) ||
		    !str_at(pf, l->str, "sample", no) ||
		    !str_at(pf, l->num_unit, "sample", no))
			return -1;
	}
	return 0;
}

static int
add_sample(struct pprof_reader *r, struct prof *pf, const struct field *f,
    size_t no, struct fold_diag *diag)
{
	struct pprof_dec *d = pf->d;
	const struct pp_sample *s;
	const uint64_t *loc, *val;
	int rc = -1;
	size_t i;

	if (pprof_decode_field(d, PP_SAMPLE, f->data, f->len) < 0) {
		pprof_dec_drop_samples(d);
		return decode_error(pf, "sample", f->off);
	}
	s = &d->sample.p[0];
	loc = &d->location_id.p[s->loc0];
	val = &d->value.p[s->val0];
	if (s->n_value != r->ntypes) {
		fold_seterr("%s: sample %zu has %zu values for %zu sample "
		    "types", pf->file, no, s->n_value, r->ntypes);
		goto out;
	}
	if (check_labels(pf, s, no) < 0)
		goto out;
	if ((rc = keep_sample(r, pf, s)) <= 0)
		goto out;
	rc = -1;
	r->added++;
	if (r->opt.list) {
		for (i = 0; i < s->n_value; i++)
			if (__builtin_add_overflow(r->totals[i],
			    (int64_t)val[i], &r->totals[i])) {
				fold_seterr("%s: total of %s overflows",
				    pf->file, r->types[i]);
				goto out;
			}
		rc = 0;
		goto out;
	}
	int64_t v = (int64_t)val[r->index];
	if (v < 0 && r->opt.negative == PPROF_NEG_FAIL) {
		/* one count a stack cannot hold them, and the differential
		   is read by few tools: asked for, not given unasked */
		fold_seterr("%s: sample %zu: negative value %" PRId64 " (a "
		    "delta profile): pprof2folded --differential writes it "
		    "as STACK BEFORE AFTER", pf->file, no, v);
		goto out;
	}
	if (v < 0 && r->opt.negative != PPROF_NEG_KEEP) {
		rc = fold_warn(diag, pf->file, 0, "sample %zu: negative value "
		    "%" PRId64, no, v);
		goto out;
	}
	r->key.len = 0;
	for (i = 0; i < r->opt.ntag_root; i++)
		add_tag(r, pf, s, r->opt.tag_root[i]);
	for (i = s->n_location_id; i-- > 0;) {
		long li = pb_idmap_find(&pf->locids, loc[i]);
		if (li < 0) {
			fold_seterr("%s: sample %zu: no location with id %"
			    PRIu64, pf->file, no, loc[i]);
			goto out;
		}
		buf_add(&r->key, pf->lkeys.p + pf->lkoff[li],
		    pf->lkoff[li + 1] - pf->lkoff[li]);
	}
	if (s->n_location_id == 0) {
		r->name.len = 0;
		buf_add(&r->name, NOSTACK, strlen(NOSTACK));
		add_frame(r, &r->key);
	}
	for (i = 0; i < r->opt.ntag_leaf; i++)
		add_tag(r, pf, s, r->opt.tag_leaf[i]);
	rc = add_stack(r, pf, v);
out:
	pprof_dec_drop_samples(d);
	return rc;
}

static int
read_profile(struct pprof_reader *r, struct prof *pf, struct fold_diag *diag)
{
	size_t pos, no = 0, done;
	struct field f;
	int rc, release;

	if (read_tables(pf) < 0) {
		/* what the check of its fields says comes first, as when it
		   is read in chunks */
		if (pf->unchecked)
			(void)pb_profile_check(pf->file, (const char *)pf->buf,
			    pf->len, r->opt.max_size);
		return -1;
	}
	/*
	 * Pass 1 framed every field as the check does, before anything was
	 * said or added: what it has not made is the framing of the
	 * messages in the first 4 KiB (checking all of a small profile was
	 * 5% of reading it).
	 */
	if (pf->unchecked && pb_profile_check_head(pf->file,
	    (const char *)pf->buf, pf->len, r->opt.max_size) < 0)
		return -1;
	if (check_types(r, pf) < 0 || pprof_dec_idmaps(pf->d, pf->file,
	    &pf->mapids, &pf->locids, &pf->funcids) < 0)
		return -1;
	if (!r->opt.list) {
		if (resolve_locations(r, pf) < 0)
			return -1;
		free_tables(pf);
	}
	/*
	 * Pass 2: the samples, one at a time; pass 1 framed every field.
	 * Where they are all the fields there (as producers write them)
	 * and nothing reads them again, each RELEASE of their bytes read
	 * goes back to the system: most of the profile, while the stacks'
	 * table grows.
	 */
	pf->len = pf->sample1;
	pos = done = pf->sample0;
	release = pf->once && (!pf->other || pf->other > pf->sample1);
	while ((rc = next_field(pf, &pos, &f)) > 0) {
		if (f.num != PP_SAMPLE)
			continue;
		if (add_sample(r, pf, &f, ++no, diag) < 0)
			return -1;
		if (release && pos - done >= RELEASE) {
			fold_release((uint8_t *)pf->buf + done, pos - done);
			done = pos;
		}
	}
	return rc;
}

/*
 * Reads the profile buf[0..len) of file, decompressed; once when nothing
 * reads buf after (its samples' pages may be given back as they are
 * read); unchecked when pb_profile_readall left its check to the reader.
 */
static int
read_bytes(struct pprof_reader *r, const char *file, const char *buf,
    size_t len, int once, int unchecked, struct fold_diag *diag)
{
	struct prof pf;
	int rc;

	memset(&pf, 0, sizeof pf);
	pf.file = file;
	pf.buf = (const uint8_t *)buf;
	pf.len = len;
	pf.once = once;
	pf.unchecked = unchecked;
	pprof_dec_reset(&r->dec, r->opt.max_size);
	pf.d = &r->dec;
	rc = read_profile(r, &pf, diag);
	if (rc == 0) {
		r->nread++;
		r->nsamples += pf.nsamples;
	}
	prof_release(&pf);
	return rc;
}

int
pprof_read(struct pprof_reader *r, struct fold_in *in, struct fold_diag *diag)
{
	char *buf;
	size_t len;
	int rc, unchecked;

	if (pb_profile_readall(in, r->opt.max_size, &buf, &len,
	    &unchecked) < 0)
		return -1;
	rc = read_bytes(r, fold_in_name(in), buf, len, 1, unchecked, diag);
	free(buf);
	return rc;
}

struct pprof_reader *
pprof_reader_new(const struct pprof_readopt *opt)
{
	struct pprof_reader *r = fold_calloc(1, sizeof *r);
	size_t i;

	r->opt = *opt;
	if (!r->opt.max_size)
		r->opt.max_size = PPROF_MAX_SIZE;
	r->frames = fold_intern_new();
	r->mask = 1023;
	r->slots = fold_calloc(r->mask + 1, sizeof *r->slots);
	r->nres = opt->ntag_focus + opt->ntag_ignore;
	r->res = fold_calloc(r->nres + 1, sizeof *r->res);
	for (i = 0; i < r->nres; i++) {
		int ignore = i >= opt->ntag_focus;
		const char *spec = ignore ? opt->tag_ignore[i - opt->ntag_focus]
		    : opt->tag_focus[i];
		const char *eq = strchr(spec, '=');
		struct tagre *t = &r->res[i];
		PCRE2_SIZE eoff;
		int err;
		if (!eq || eq == spec) {
			fold_seterr("tag %s '%s': expected KEY=REGEX",
			    ignore ? "ignore" : "focus", spec);
			pprof_reader_free(r);
			return NULL;
		}
		t->key = spec;
		t->keylen = eq - spec;
		t->ignore = ignore;
		t->re = pcre2_compile((PCRE2_SPTR)eq + 1, PCRE2_ZERO_TERMINATED,
		    0, &err, &eoff, NULL);
		if (!t->re) {
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(err, msg, sizeof msg);
			fold_seterr("tag %s '%s': %s at offset %zu",
			    ignore ? "ignore" : "focus", spec, (char *)msg,
			    (size_t)eoff);
			pprof_reader_free(r);
			return NULL;
		}
	}
	r->md = pcre2_match_data_create(1, NULL);
	return r;
}

void
pprof_reader_free(struct pprof_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nres; i++)
		pcre2_code_free(r->res[i].re);
	free(r->res);
	pcre2_match_data_free(r->md);
	for (i = 0; i < r->ntypes; i++)
		free(r->types[i]);
	free(r->types);
	free(r->totals);
	fold_intern_free(r->frames);
	pprof_dec_free(&r->dec);
	free(r->keys.p);
	free(r->ents);
	free(r->neg);
	free(r->negfile);
	free(r->slots);
	free(r->key.p);
	free(r->name.p);
	free(r->label.p);
	free(r);
}

/*
 * Byte order of the folded texts "a;b;c" of two keys. Frames are
 * compared by id until the first that differs; names hold no ';', so
 * the texts first differ within that frame or where one name ends.
 */
static int
cmp_key(const struct pprof_reader *r, const struct ent *ea,
    const struct ent *eb)
{
	const uint8_t *a = (const uint8_t *)r->keys.p + ENT_OFF(ea);
	const uint8_t *b = (const uint8_t *)r->keys.p + ENT_OFF(eb);
	const uint8_t *ae = a + ENT_LEN(ea), *be = b + ENT_LEN(eb);
	uint32_t fa = 0, fb = 0;

	while (a < ae && b < be) {
		fa = getvar(&a);
		fb = getvar(&b);
		if (fa != fb)
			break;
	}
	if (fa == fb)		/* one is a prefix of the other */
		return (a < ae) - (b < be);
	size_t la = r->names[fa].n, lb = r->names[fb].n;
	const unsigned char *sa = (const unsigned char *)r->names[fa].p;
	const unsigned char *sb = (const unsigned char *)r->names[fb].p;
	int c = memcmp(sa, sb, la < lb ? la : lb);
	if (c)
		return c;
	/* one name is a prefix of the other: ';' or the end follows it */
	if (la < lb)
		return a < ae && ';' > sb[la] ? 1 : -1;
	return b < be && ';' > sa[lb] ? -1 : 1;
}

/*
 * A token is a frame with what follows it in the text: 2 * id for the
 * last frame (the end of the text), 2 * id + 1 for the others (';').
 * Tokens in byte order of "name" + that end give each stack a sortable
 * prefix: the ranks of its first tokens packed in 64 bits, whose order
 * is the order of the texts as far as it goes.
 */
static int
cmp_token(const void *x, const void *y, void *arg)
{
	const struct pp_str *names = arg;
	uint32_t ta = *(const uint32_t *)x, tb = *(const uint32_t *)y;
	const struct pp_str *a = &names[ta / 2], *b = &names[tb / 2];
	int c = memcmp(a->p, b->p, a->n < b->n ? a->n : b->n);

	if (c)
		return c;
	if (a->n == b->n)	/* the same frame: its end sorts first */
		return (int)(ta & 1) - (int)(tb & 1);
	if (a->n < b->n)
		return (ta & 1) && ';' > (unsigned char)b->p[a->n] ? 1 : -1;
	return (tb & 1) && ';' > (unsigned char)a->p[b->n] ? -1 : 1;
}

struct sorted {
	uint64_t prefix;
	uint32_t ent;
};

static int
cmp_sorted(const void *x, const void *y, void *arg)
{
	const struct sorted *a = x, *b = y;
	const struct pprof_reader *r = arg;

	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	return cmp_key(r, &r->ents[a->ent], &r->ents[b->ent]);
}

/* Sorts the stacks in the byte order of their texts. */
static struct sorted *
sort_stacks(struct pprof_reader *r, size_t nfr)
{
	size_t ntok = 2 * nfr, i, k;
	uint32_t *tok = fold_reallocarray(NULL, ntok + 1, sizeof *tok);
	uint32_t *rank = fold_reallocarray(NULL, ntok + 1, sizeof *rank);
	struct sorted *s = fold_reallocarray(NULL, r->nents + 1, sizeof *s);
	int bits = 1, per;

	for (i = 0; i < ntok; i++)
		tok[i] = (uint32_t)i;
	qsort_r(tok, ntok, sizeof *tok, cmp_token, r->names);
	for (i = 0; i < ntok; i++)
		rank[tok[i]] = (uint32_t)i + 1;		/* 0: no more frames */
	while (bits < 32 && ((uint64_t)1 << bits) <= ntok)
		bits++;
	per = 64 / bits;
	for (i = 0; i < r->nents; i++) {
		const struct ent *e = &r->ents[i];
		const uint8_t *p = (const uint8_t *)r->keys.p + ENT_OFF(e);
		const uint8_t *end = p + ENT_LEN(e);
		uint64_t pre = 0;
		for (k = 0; k < (size_t)per; k++) {
			uint32_t t = 0;
			if (p < end) {
				uint32_t f = getvar(&p);
				t = rank[(size_t)2 * f + (p < end)];
			}
			pre = pre << bits | t;
		}
		s[i].prefix = pre;
		s[i].ent = (uint32_t)i;
	}
	qsort_r(s, r->nents, sizeof *s, cmp_sorted, r);
	free(tok);
	free(rank);
	return s;
}

/*
 * The unit of the selected sample type's values: its unit, but for a
 * count ("samples/count", "contentions/count") the name of what is
 * counted; NULL (samples) when there is none or it is no unit name.
 */
static const char *
pprof_unit(struct pprof_reader *r)
{
	const char *t, *u;

	if (!r->types || r->index >= r->ntypes)
		return NULL;
	t = r->types[r->index];
	if (!(u = strrchr(t, '/')))
		return NULL;
	if (strcmp(u + 1, "count") != 0)
		return fold_unit_valid(u + 1, strlen(u + 1)) ? u + 1 : NULL;
	if (!fold_unit_valid(t, (size_t)(u - t)))
		return NULL;
	memcpy(r->unit, t, (size_t)(u - t));
	r->unit[u - t] = '\0';
	return r->unit;
}

int
pprof_write_folded(struct pprof_reader *r, struct fold_out *out)
{
	size_t i, nfr = fold_intern_count(r->frames);
	struct buf *line = &r->name;
	struct sorted *s;
	struct fold_unit_out u;
	char num[48];

	if (r->nread == 0)
		return fold_seterr("no profile read");
	r->names = fold_reallocarray(NULL, nfr + 1, sizeof *r->names);
	for (i = 0; i < nfr; i++)
		r->names[i].p = fold_intern_str(r->frames, i, &r->names[i].n);
	s = sort_stacks(r, nfr);
	fold_unit_out_init(&u, r->nents ? pprof_unit(r) : NULL,
	    r->opt.negative == PPROF_NEG_KEEP ? 2 : 1);
	for (i = 0; i < r->nents && !fold_out_failed(out); i++) {
		const struct ent *e = &r->ents[s[i].ent];
		const uint8_t *k = (const uint8_t *)r->keys.p + ENT_OFF(e);
		const uint8_t *end = k + ENT_LEN(e);
		line->len = 0;
		while (k < end) {
			const struct pp_str *f = &r->names[getvar(&k)];
			buf_add(line, f->p, f->n);
			buf_addc(line, k < end ? ';' : ' ');
		}
		fold_unit_out_before(&u, out, line->p, line->len - 1);
		if (r->opt.negative != PPROF_NEG_KEEP)
			buf_add(line, num, snprintf(num, sizeof num, "%"
			    PRIu64 "\n", e->count));
		else if (r->neg && r->neg[s[i].ent])
			buf_add(line, num, snprintf(num, sizeof num, "%"
			    PRIu64 " 0\n", e->count));
		else
			buf_add(line, num, snprintf(num, sizeof num, "0 %"
			    PRIu64 "\n", e->count));
		fold_out_write(out, line->p, line->len);
	}
	fold_unit_out_end(&u, out);
	free(s);
	free(r->names);
	r->names = NULL;
	return 0;
}

/*
 * Adds the stacks of every profile read, with the selected sample
 * values, to st (interning their frames in st's table), for a caller
 * that merges them with stacks of other formats. Returns 0, or -1 with
 * a message when nothing was read, a count overflows, or a negative
 * value was kept (the counts of st are unsigned).
 */
static int
pprof_add_stacks(struct pprof_reader *r, struct fold_stacks *st)
{
	struct fold_intern *to = fold_stacks_frames(st);
	size_t i, n, len, cap = 0, nfr = fold_intern_count(r->frames);
	uint32_t *map, *ids = NULL;
	int rc = 0;

	if (r->nread == 0)
		return fold_seterr("no profile read");
	if (r->negfile)
		return fold_seterr("%s: negative sample values (a delta "
		    "profile) cannot be added to unsigned counts", r->negfile);
	map = fold_reallocarray(NULL, nfr + 1, sizeof *map);
	for (i = 0; i < nfr; i++) {
		const char *s = fold_intern_str(r->frames, i, &len);
		map[i] = fold_intern(to, s, len);
	}
	for (i = 0; i < r->nents && rc == 0; i++) {
		const struct ent *e = &r->ents[i];
		const uint8_t *k = (const uint8_t *)r->keys.p + ENT_OFF(e);
		const uint8_t *end = k + ENT_LEN(e);
		struct fold_count c = fold_count_u64(e->count);
		for (n = 0; k < end; n++) {
			ids = fold_grow(ids, &cap, n + 1, sizeof *ids);
			ids[n] = map[getvar(&k)];
		}
		if (fold_stacks_add(st, ids, n, &c) < 0)
			rc = -1;
	}
	free(map);
	free(ids);
	return rc;
}

int
pprof_list(struct pprof_reader *r, struct fold_out *out)
{
	size_t i;

	if (r->nread == 0)
		return fold_seterr("no profile read");
	for (i = 0; i < r->ntypes; i++)
		fold_out_printf(out, "%s %" PRId64 "%s\n", r->types[i],
		    r->totals[i], i == r->index ? " (selected)" : "");
	return 0;
}

/* The text of stack i, shortened, for messages. */
static const char *
stack_text(struct fold_stacks *st, size_t i, struct buf *b)
{
	const struct fold_intern *fr = fold_stacks_frames(st);
	const uint32_t *ids;
	size_t n, j, len;

	ids = fold_stacks_ids(st, i, &n);
	b->len = 0;
	for (j = 0; j < n && b->len < 200; j++) {
		const char *s = fold_intern_str(fr, ids[j], &len);
		if (j)
			buf_addc(b, ';');
		buf_add(b, s, len);
	}
	if (b->len > 200) {
		b->len = 200;
		buf_add(b, "...", 3);
	}
	buf_addc(b, '\0');
	return b->p;
}

int
pprof_write(struct fold_out *out, struct fold_stacks *st,
    const struct pprof_writeopt *opt)
{
	struct fold_intern *fr = fold_stacks_frames(st);
	size_t nst = fold_stacks_len(st), nfr = fold_intern_count(fr);
	size_t i, j, n, nloc = 0, nids = 0, len;
	struct buf msg = { 0, 0, 0 };
	const uint32_t *ids;
	int rc = -1;

	fold_stacks_sort(st, FOLD_ORDER_TEXT);
	for (i = 0; i < nst; i++) {
		const struct fold_count *c = fold_stacks_counts(st, i);
		char num[FOLD_COUNT_BUFSZ];
		if (!c->frac && c->v.u <= INT64_MAX)
			continue;
		fold_count_fmt(c, num);
		fold_seterr("stack %s: count %s is not %s", stack_text(st, i,
		    &msg), num, c->frac ? "an integer (pprof values are)" :
		    "in pprof's range (up to 2^63-1)");
		free(msg.p);
		return -1;
	}

	/* locations numbered by first appearance in the sorted stacks */
	uint32_t *locid = fold_calloc(nfr + 1, sizeof *locid);
	uint32_t *frame = fold_calloc(nfr + 1, sizeof *frame);
	for (i = 0; i < nst; i++) {
		ids = fold_stacks_ids(st, i, &n);
		nids += n;
		for (j = 0; j < n; j++)
			if (!locid[ids[j]]) {
				frame[nloc] = ids[j];
				locid[ids[j]] = (uint32_t)++nloc;
			}
	}

	struct fold_intern *strs = fold_intern_new();
	ValueType stype = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	ValueType ptype = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	ValueType *stypes[1] = { &stype };
	Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;

	fold_intern(strs, "", 0);
	stype.type = fold_intern(strs, opt->type, strlen(opt->type));
	stype.unit = fold_intern(strs, opt->unit, strlen(opt->unit));
	p.n_sample_type = 1;
	p.sample_type = stypes;
	if (opt->period_type || opt->period) {
		const char *t = opt->period_type ? opt->period_type : opt->type;
		const char *u = opt->period_type ? opt->period_unit : opt->unit;
		ptype.type = fold_intern(strs, t, strlen(t));
		ptype.unit = fold_intern(strs, u, strlen(u));
		p.period_type = &ptype;
		p.period = opt->period;
	}

	Function *funcs = fold_calloc(nloc + 1, sizeof *funcs);
	Location *locs = fold_calloc(nloc + 1, sizeof *locs);
	Line *lines = fold_calloc(nloc + 1, sizeof *lines);
	Line **linep = fold_calloc(nloc + 1, sizeof *linep);
	p.function = fold_calloc(nloc + 1, sizeof *p.function);
	p.location = fold_calloc(nloc + 1, sizeof *p.location);
	for (i = 0; i < nloc; i++) {
		const char *s = fold_intern_str(fr, frame[i], &len);
		perftools__profiles__function__init(&funcs[i]);
		funcs[i].id = i + 1;
		funcs[i].name = fold_intern(strs, s, len);
		perftools__profiles__line__init(&lines[i]);
		lines[i].function_id = i + 1;
		linep[i] = &lines[i];
		perftools__profiles__location__init(&locs[i]);
		locs[i].id = i + 1;
		locs[i].n_line = 1;
		locs[i].line = &linep[i];
		p.function[i] = &funcs[i];
		p.location[i] = &locs[i];
	}
	p.n_function = p.n_location = nloc;

	Sample *samples = fold_calloc(nst + 1, sizeof *samples);
	uint64_t *locids = fold_calloc(nids + 1, sizeof *locids), *lp = locids;
	int64_t *values = fold_calloc(nst + 1, sizeof *values);
	p.sample = fold_calloc(nst + 1, sizeof *p.sample);
	for (i = 0; i < nst; i++) {
		ids = fold_stacks_ids(st, i, &n);
		perftools__profiles__sample__init(&samples[i]);
		samples[i].n_location_id = n;
		samples[i].location_id = lp;
		for (j = n; j-- > 0;)	/* leaf first */
			*lp++ = locid[ids[j]];
		values[i] = (int64_t)fold_stacks_counts(st, i)->v.u;
		samples[i].n_value = 1;
		samples[i].value = &values[i];
		p.sample[i] = &samples[i];
	}
	p.n_sample = nst;

	/*
	 * protobuf-c holds strings NUL terminated, and frame names may hold
	 * NUL bytes: the string table (field 6, length-delimited) is encoded
	 * here, after the rest; repeated fields may come in any order.
	 */
	size_t nstr = fold_intern_count(strs), size, slen, o;
	size = protobuf_c_message_get_packed_size(&p.base);
	for (i = 0; i < nstr; i++) {
		fold_intern_str(strs, i, &slen);
		size += 1 + 10 + slen;
	}
	uint8_t *packed = fold_malloc(size + 1);
	o = protobuf_c_message_pack(&p.base, packed);
	for (i = 0; i < nstr; i++) {
		const char *str = fold_intern_str(strs, i, &slen);
		uint64_t v = slen;
		packed[o++] = 6 << 3 | 2;
		for (; v >= 0x80; v >>= 7)
			packed[o++] = (uint8_t)(v | 0x80);
		packed[o++] = (uint8_t)v;
		memcpy(packed + o, str, slen);
		o += slen;
	}
	rc = pb_gzip_write(out, packed, o);

	free(packed);
	free(p.sample);
	free(values);
	free(locids);
	free(samples);
	free(p.location);
	free(p.function);
	free(linep);
	free(lines);
	free(locs);
	free(funcs);
	fold_intern_free(strs);
	free(frame);
	free(locid);
	free(msg.p);
	return rc;
}

/*
 * The format's reader: one pprof_reader for the run, as pprof2folded
 * always read (its frames interned once, its tag regexes compiled once),
 * whose profiles add up; a profile that fails before giving a sample
 * (not a profile, other sample types) leaves it as it was. One that
 * fails among its samples leaves part of them: then no pprof stack is
 * written, rather than a merge with part of a profile.
 */
struct pprof_run {
	struct pprof_reader *r;
	struct fold_stacks *st;		/* the run's table */
	int damaged;			/* a profile failed among its samples */
	int direct;			/* alone in the run: written by r */
	/*
	 * A worker's (format.h): r's frames given to the run's reader so
	 * far (prepare's), and the run's id of each (commit's).
	 */
	size_t nsent;
	uint32_t *map;
	size_t nmap, capmap;
};

static void *
pprof_open(const void *opt, struct fold_stacks *st)
{
	struct pprof_reader *r = pprof_reader_new(opt);
	struct pprof_run *run;

	if (!r)
		return NULL;
	run = fold_calloc(1, sizeof *run);
	run->r = r;
	run->st = st;
	return run;
}

static int
pprof_runread(void *rp, struct fold_in *in, struct fold_diag *diag)
{
	struct pprof_run *run = rp;
	uint64_t added = run->r->added;
	int rc = pprof_read(run->r, in, diag);

	if (rc < 0 && run->r->added != added)
		run->damaged = 1;
	return rc;
}

static uint64_t
pprof_records(const void *rp)
{
	return ((const struct pprof_run *)rp)->r->nread;
}

/*
 * The stacks join the run's table when another format gave some; alone,
 * they are written straight from the reader (no second table).
 */
static int
pprof_finish(void *rp, int ok, fold_say_fn *say, void *arg)
{
	struct pprof_run *run = rp;

	if (run->damaged || run->r->nread == 0 || run->r->opt.list ||
	    run->r->opt.negative == PPROF_NEG_KEEP)
		return 0;
	if (fold_stacks_len(run->st) == 0) {
		run->direct = 1;
		return 0;
	}
	if (pprof_add_stacks(run->r, run->st) < 0) {
		say(arg, fold_err());
		return -1;
	}
	return 0;
}

/*
 * --list: the sample types and their totals; --differential: each
 * stack's net value, "0 v" or "-v 0"; or the stacks, when alone.
 */
static int
pprof_output(void *rp, struct fold_out *out)
{
	struct pprof_run *run = rp;
	struct pprof_reader *r = run->r;

	if (run->damaged || r->nread == 0)
		return 0;
	if (r->opt.list)
		return pprof_list(r, out) < 0 ? -1 : 1;
	if (run->direct ? r->nents == 0 : r->opt.negative != PPROF_NEG_KEEP)
		return 0;
	return pprof_write_folded(r, out) < 0 ? -1 : 1;
}

static void
pprof_close(void *rp)
{
	struct pprof_run *run = rp;

	if (!run)
		return;
	pprof_reader_free(run->r);
	free(run->map);
	free(run);
}

/*
 * A fleet's profiles on threads of their own. A worker reads each profile
 * as if it were the run's first, into a table of its own with frames of
 * its own; the run's reader takes its stacks in input order, their frames
 * mapped to its own. Whatever the worker's reading cannot stand for
 * (a profile that failed, a warning, a negative value, --list, sample
 * types or a selection other than the run's, a sum that might overflow
 * or pass --max-size) has the run's reader read the profile's bytes
 * itself: slower, never different.
 */
struct pprof_prepared {
	char *file;
	char *err;		/* the profile could not be read whole */
	char *buf;		/* its bytes, for the run to read it itself */
	size_t len;
	int unchecked;		/* pb_profile_readall's check left to it */
	int found;		/* the worker read it: */
	char **types;
	size_t ntypes, index;
	struct buf keys;	/* the worker's frame ids */
	struct ent *ents;
	size_t nents, longest;	/* longest: the longest key */
	uint64_t nsamples, added, mass;
	/* the frames the worker interned for it: names, and their ends */
	struct buf names;
	size_t *ends, nnames;
};

static void *
pprof_worker(void *rp)
{
	/* the options alone: r reads on meanwhile */
	return pprof_open(&((struct pprof_run *)rp)->r->opt, NULL);
}

/* r as it started, but its frames and what it keeps to decode. */
static void
reader_reset(struct pprof_reader *r)
{
	size_t i;

	for (i = 0; i < r->ntypes; i++)
		free(r->types[i]);
	free(r->types);
	free(r->totals);
	r->types = NULL;
	r->totals = NULL;
	r->ntypes = r->index = 0;
	r->nread = 0;
	r->nsamples = r->added = r->mass = 0;
	free(r->neg);
	free(r->negfile);
	r->neg = NULL;
	r->negfile = NULL;
	r->keys.len = 0;
	r->nents = 0;
	/* a large profile's table goes: small ones would clear it */
	if (r->mask > 4095) {
		free(r->slots);
		r->mask = 1023;
		r->slots = fold_calloc(r->mask + 1, sizeof *r->slots);
	} else {
		memset(r->slots, 0, (r->mask + 1) * sizeof *r->slots);
	}
}

static void
warned(void *arg, const char *file, uint64_t line, const char *text)
{
	*(int *)arg = 1;
}

static void *
pprof_prepare(void *wp, struct fold_in *in)
{
	struct pprof_run *w = wp;
	struct pprof_reader *r = w->r;
	struct pprof_prepared *p = fold_calloc(1, sizeof *p);
	struct fold_diag diag = FOLD_DIAG_INIT;
	const char *name = fold_in_name(in);
	size_t i, n;
	int rc, warn = 0;

	p->file = fold_strdup(name);
	if (pb_profile_readall(in, r->opt.max_size, &p->buf, &p->len,
	    &p->unchecked) < 0) {
		p->err = fold_strdup(fold_err());
		return p;
	}
	/* --list adds totals, which only the run's reader can: it reads */
	if (r->opt.list)
		return p;
	reader_reset(r);
	diag.defer = warned;
	diag.arg = &warn;
	/* its commit may read them again */
	rc = read_bytes(r, p->file, p->buf, p->len, 0, p->unchecked, &diag);
	/* the frames it interned, whatever came of it */
	n = fold_intern_count(r->frames);
	p->ends = fold_reallocarray(NULL, n - w->nsent + 1, sizeof *p->ends);
	for (i = w->nsent; i < n; i++) {
		size_t len;
		const char *f = fold_intern_str(r->frames, (uint32_t)i, &len);
		buf_add(&p->names, f, len);
		p->ends[p->nnames++] = p->names.len;
	}
	w->nsent = n;
	/*
	 * The bytes are kept until the commit all the same: only the run's
	 * reader knows whether it takes what the worker found.
	 */
	if (rc != 0 || warn || r->neg)
		return p;
	p->found = 1;
	p->types = r->types;
	p->ntypes = r->ntypes;
	p->index = r->index;
	r->types = NULL;
	r->ntypes = 0;
	p->nsamples = r->nsamples;
	p->added = r->added;
	p->mass = r->mass;
	p->nents = r->nents;
	p->ents = fold_reallocarray(NULL, r->nents + 1, sizeof *p->ents);
	if (r->nents)	/* r->ents may be NULL: no sample kept */
		memcpy(p->ents, r->ents, r->nents * sizeof *p->ents);
	buf_add(&p->keys, r->keys.p, r->keys.len);
	for (i = 0; i < r->nents; i++)
		if (ENT_LEN(&r->ents[i]) > p->longest)
			p->longest = ENT_LEN(&r->ents[i]);
	return p;
}

static void
pprof_drop(void *pp)
{
	struct pprof_prepared *p = pp;
	size_t i;

	if (!p)
		return;
	free(p->file);
	free(p->err);
	free(p->buf);
	for (i = 0; i < p->ntypes; i++)
		free(p->types[i]);
	free(p->types);
	free(p->keys.p);
	free(p->ents);
	free(p->names.p);
	free(p->ends);
	free(p);
}

/* Whether r can take the worker's reading of p as its own. */
static int
takes(const struct pprof_reader *r, const struct pprof_prepared *p)
{
	size_t i;

	if (!p->found)
		return 0;
	if (r->types) {
		if (p->ntypes != r->ntypes || p->index != r->index)
			return 0;
		for (i = 0; i < p->ntypes; i++)
			if (strcmp(p->types[i], r->types[i]) != 0)
				return 0;
	}
	/* frame ids of the run take five bytes at most, the worker's one */
	if (r->mass > UINT64_MAX - p->mass || p->longest > KEYLEN_MAX / 5 ||
	    r->nents + p->nents >= UINT32_MAX - 1 ||
	    r->keys.len + 5 * p->keys.len + (r->nents + p->nents) *
	    (sizeof(struct ent) + 8) > r->opt.max_size)
		return 0;
	return 1;
}

static int
pprof_commit(void *rp, void *wp, void *pp, struct fold_diag *diag)
{
	struct pprof_run *run = rp, *w = wp;
	struct pprof_reader *r = run->r;
	struct pprof_prepared *p = pp;
	const uint8_t *k, *end;
	size_t i, start;
	uint64_t added = r->added;
	int rc = 0;

	/* the run's ids of the frames the worker interned */
	w->map = fold_grow(w->map, &w->capmap, w->nmap + p->nnames,
	    sizeof *w->map);
	for (i = 0, start = 0; i < p->nnames; start = p->ends[i++])
		w->map[w->nmap++] = fold_intern(r->frames,
		    p->names.p + start, p->ends[i] - start);
	if (p->err) {
		rc = fold_seterr("%s", p->err);
	} else if (!takes(r, p)) {
		/* as pprof_read, on the bytes read */
		rc = read_bytes(r, p->file, p->buf, p->len, 0, p->unchecked,
		    diag);
		if (rc < 0 && r->added != added)
			run->damaged = 1;
	} else {
		if (!r->types) {	/* the first profile's */
			r->types = p->types;
			r->ntypes = p->ntypes;
			r->index = p->index;
			r->totals = fold_calloc(r->ntypes, sizeof *r->totals);
			p->types = NULL;
			p->ntypes = 0;
		}
		for (i = 0; i < p->nents; i++) {
			k = (const uint8_t *)p->keys.p + ENT_OFF(&p->ents[i]);
			end = k + ENT_LEN(&p->ents[i]);
			r->key.len = 0;
			while (k < end)
				buf_addvar(&r->key, w->map[getvar(&k)]);
			/* takes() said it cannot fail */
			if (add_key(r, p->file, 0, p->ents[i].count) < 0)
				abort();
		}
		r->nread++;
		r->nsamples += p->nsamples;
		r->added += p->added;
	}
	pprof_drop(p);
	return rc;
}

#define OFF(field) offsetof(struct pprof_readopt, field)

static int
differential(void *opts, const char *value, const char *more)
{
	((struct pprof_readopt *)opts)->negative = PPROF_NEG_KEEP;
	return 0;
}

static const struct fold_option pprof_options[] = {
	{ .name = "differential", .kind = FOLD_OPT_CALL, .call = differential,
	    .help = "write a delta profile as \"STACK BEFORE AFTER\"" },
	{ .name = "filenames", .kind = FOLD_OPT_FLAG, .off = OFF(filenames),
	    .value = 1, .help = "follow each function with its source file" },
	{ .name = "lines", .kind = FOLD_OPT_FLAG, .off = OFF(lines),
	    .value = 1, .help = "append \":LINE\" to each frame" },
	{ .name = "list", .kind = FOLD_OPT_FLAG, .off = OFF(list), .value = 1,
	    .help = "write the sample types and totals, not stacks" },
	{ .name = "max-size", .arg = "BYTES", .kind = FOLD_OPT_SIZE,
	    .off = OFF(max_size), .help = "refuse a profile larger than BYTES (2G)" },
	{ .name = "sample-index", .arg = "NAME|N", .kind = FOLD_OPT_STRING,
	    .off = OFF(sample_index), .reject = "", .what = "a sample type",
	    .help = "write the values of this sample type" },
	{ .name = "tag-focus", .arg = "KEY=REGEX", .kind = FOLD_OPT_LIST,
	    .off = OFF(tag_focus), .countoff = OFF(ntag_focus),
	    .help = "keep samples with a label KEY matching REGEX" },
	{ .name = "tag-ignore", .arg = "KEY=REGEX", .kind = FOLD_OPT_LIST,
	    .off = OFF(tag_ignore), .countoff = OFF(ntag_ignore),
	    .help = "drop samples with a label KEY matching REGEX" },
	{ .name = "tag-leaf", .arg = "KEY[,KEY...]", .kind = FOLD_OPT_KEYS,
	    .off = OFF(tag_leaf), .countoff = OFF(ntag_leaf),
	    .help = "put frames \"KEY=VALUE\" of these labels at the leaf" },
	{ .name = "tag-root", .arg = "KEY[,KEY...]", .kind = FOLD_OPT_KEYS,
	    .off = OFF(tag_root), .countoff = OFF(ntag_root),
	    .help = "put frames \"KEY=VALUE\" of these labels at the root" },
	{ .name = NULL }
};

#undef OFF

static const char *
pprof_rununit(const void *rp)
{
	return pprof_unit(((const struct pprof_run *)rp)->r);
}

static const struct pprof_readopt pprof_defaults = PPROF_READOPT_INIT;

const struct format pprof_format = {
	.id = &pprof_id,
	.kind = FOLD_BINARY,
	.one = "sample",
	.many = "samples",
	.options = pprof_options,
	.optsize = sizeof(struct pprof_readopt),
	.defaults = &pprof_defaults,
	.open = pprof_open,
	.read = pprof_runread,
	.records = pprof_records,
	.unit = pprof_rununit,
	.finish = pprof_finish,
	.output = pprof_output,
	.close = pprof_close,
	.worker = pprof_worker,
	.prepare = pprof_prepare,
	.commit = pprof_commit,
	.drop = pprof_drop,
};
