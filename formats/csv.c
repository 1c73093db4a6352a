#include <string.h>

#include "libfold/str.h"
#include "formats/csv.h"

int
csv_split(const char *s, size_t n, int delim, struct csv_field *f, int max,
    char *buf)
{
	const char *p = s, *e = s + n, *q;
	size_t o;
	int k = 0;

	while (k < max) {
		f[k].lead = 0;
		while (p < e && *p == ' ')
			p++, f[k].lead++;
		if (p < e && *p == '"') {
			p++;
			q = memchr(p, '"', e - p);
			if (!q)
				return -1;
			if (q + 1 < e && q[1] == '"') {
				/* "" inside: copy, unescaping */
				f[k].s = buf;
				for (o = 0;; ) {
					if (p == e)
						return -1;
					if (*p == '"') {
						if (p + 1 < e && p[1] == '"') {
							buf[o++] = '"';
							p += 2;
							continue;
						}
						break;
					}
					buf[o++] = *p++;
				}
				f[k].n = o;
				buf += o;
				q = p;
			} else {
				f[k].s = p;
				f[k].n = q - p;
			}
			p = q + 1;
			while (p < e && *p == ' ')
				p++;
			k++;
			if (p == e)
				return k;
			if (*p != delim)
				return -1;
			p++;
			continue;
		}
		q = memchr(p, delim, e - p);
		f[k].s = p;
		f[k].n = (q ? q : e) - p;
		k++;
		if (!q)
			return k;
		p = q + 1;
	}
	return k;
}

const char *
csv_skip_bom(const char *s, size_t *n)
{
	if (*n >= 3 && memcmp(s, CSV_BOM, 3) == 0) {
		*n -= 3;
		return s + 3;
	}
	return s;
}

int
csv_column(const struct csv_field *f, int nf, const char *name)
{
	size_t len = strlen(name), n;
	const char *s;
	int i;

	for (i = 0; i < nf; i++) {
		s = f[i].s;
		n = f[i].n;
		while (n > 0 && fold_isblank(s[n - 1]))
			n--;
		if (n == len && memcmp(s, name, n) == 0)
			return i;
	}
	return -1;
}
