#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "formats/nameattr.h"
#include "formats/xml.h"

struct fold_nameattr {
	struct fold_intern *names;
	struct fold_frameattr *attrs;	/* by the id of the name */
	size_t nattrs;
};

static int
nameattr_line(struct fold_nameattr *na, const char *file, uint64_t lineno,
    const char *line, size_t len)
{
	const char *tab = memchr(line, '\t', len), *end = line + len, *f, *e;
	struct fold_frameattr *a;
	uint32_t id;

	if (!tab)
		return fold_seterr_at(file, lineno,
		    "expected NAME<tab>KEY=VALUE...");
	id = fold_intern(na->names, line, tab - line);
	if (id >= na->nattrs) {
		na->attrs = fold_reallocarray(na->attrs, id + 1,
		    sizeof *na->attrs);
		memset(na->attrs + na->nattrs, 0,
		    (id + 1 - na->nattrs) * sizeof *na->attrs);
		na->nattrs = id + 1;
	}
	a = &na->attrs[id];
	for (f = tab + 1; f < end; f = e + 1) {
		const char *eq;
		char *key, *val;
		e = memchr(f, '\t', end - f);
		if (!e)
			e = end;
		if (e == f)
			continue;
		eq = memchr(f, '=', e - f);
		if (!eq)
			return fold_seterr_at(file, lineno,
			    "expected KEY=VALUE");
		key = fold_strndup(f, eq - f);
		val = fold_strndup(eq + 1, e - eq - 1);
		if (strcmp(key, "title") == 0) {
			free(a->title);
			a->title = val;
		} else if (strcmp(key, "href") == 0) {
			free(a->href);
			a->href = val;
		} else if (strcmp(key, "target") == 0) {
			free(a->target);
			a->target = val;
		} else if (!fold_xml_isname(key) || strcmp(key, "id") == 0 ||
		    strcmp(key, "g_extra") == 0 || strcmp(key, "a_extra") == 0) {
			fold_seterr_at(file, lineno,
			    "attribute not supported: %s", key);
			free(key);
			free(val);
			return -1;
		} else {
			a->kv = fold_reallocarray(a->kv, a->nkv + 2,
			    sizeof *a->kv);
			a->kv[a->nkv++] = key;
			a->kv[a->nkv++] = val;
			continue;
		}
		free(key);
		if (e == end)
			break;
	}
	return 0;
}

struct fold_nameattr *
fold_nameattr_load(const char *path)
{
	struct fold_in *in = fold_in_open(path);
	struct fold_nameattr *na;
	const char *line;
	size_t len;
	int r;

	if (!in)
		return NULL;
	na = fold_calloc(1, sizeof *na);
	na->names = fold_intern_new();
	while ((r = fold_in_line(in, &line, &len)) > 0) {
		if (len == 0)
			continue;
		if (nameattr_line(na, fold_in_name(in), fold_in_lineno(in), line,
		    len) < 0) {
			r = -1;
			break;
		}
	}
	if (fold_in_close(in) < 0)
		r = -1;
	if (r < 0) {
		fold_nameattr_free(na);
		return NULL;
	}
	return na;
}

const struct fold_frameattr *
fold_nameattr_find(const struct fold_nameattr *na, const char *s, size_t n)
{
	uint32_t id = fold_intern_find(na->names, s, n);

	return id != FOLD_NOFRAME && id < na->nattrs ? &na->attrs[id] : NULL;
}

void
fold_nameattr_free(struct fold_nameattr *na)
{
	size_t i, j;

	if (!na)
		return;
	for (i = 0; i < na->nattrs; i++) {
		free(na->attrs[i].title);
		free(na->attrs[i].href);
		free(na->attrs[i].target);
		for (j = 0; j < na->attrs[i].nkv; j++)
			free(na->attrs[i].kv[j]);
		free(na->attrs[i].kv);
	}
	free(na->attrs);
	fold_intern_free(na->names);
	free(na);
}
