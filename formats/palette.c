#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libfold/err.h"
#include "libfold/hash.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/output.h"
#include "libfold/str.h"
#include "formats/palette.h"

struct fold_palette {
	enum fold_palette_kind kind;
	int hash;			/* flamegraph.pl's namehash */
	int random;
	uint64_t rng;			/* xorshift state under random */
	char buf[FOLD_COLOR_BUFSZ];	/* the last colour made */
	struct fold_intern *names;	/* the map's names, or NULL */
	char **colors;			/* the map's colour of each name */
	size_t ncolors;
	int dirty;			/* a name was added since loading */
};

static const char *const kindnames[] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "red",
	"green", "blue", "aqua", "yellow", "purple", "orange"
};

int
fold_palette_parse(const char *name, enum fold_palette_kind *kind)
{
	size_t i;

	for (i = 0; i < sizeof kindnames / sizeof *kindnames; i++)
		if (strcmp(name, kindnames[i]) == 0) {
			*kind = (enum fold_palette_kind)i;
			return 0;
		}
	return fold_seterr("unknown palette: %s (hot, mem, io, wakeup, chain, "
	    "java, js, perl, red, green, blue, aqua, yellow, purple, orange)",
	    name);
}

static int
ishex6(const char *s)
{
	int i;

	if (s[0] != '#')
		return 0;
	for (i = 1; i <= 6; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			return 0;
	return s[7] == '\0';
}

int
fold_palette_bgcheck(const char *s)
{
	if (strcmp(s, "yellow") == 0 || strcmp(s, "blue") == 0 ||
	    strcmp(s, "green") == 0 || strcmp(s, "grey") == 0 || ishex6(s))
		return 0;
	return fold_seterr("unknown background: %s (yellow, blue, green, grey "
	    "or #rrggbb)", s);
}

static const char *
bg_default(enum fold_palette_kind kind)
{
	switch (kind) {
	case FOLD_PALETTE_MEM:
		return "green";
	case FOLD_PALETTE_IO: case FOLD_PALETTE_WAKEUP:
	case FOLD_PALETTE_CHAIN:
		return "blue";
	case FOLD_PALETTE_RED: case FOLD_PALETTE_GREEN: case FOLD_PALETTE_BLUE:
	case FOLD_PALETTE_AQUA: case FOLD_PALETTE_YELLOW:
	case FOLD_PALETTE_PURPLE: case FOLD_PALETTE_ORANGE:
		return "grey";
	default:
		return "yellow";
	}
}

void
fold_palette_background(enum fold_palette_kind kind, const char *bg,
    const char **top, const char **bottom)
{
	*top = "#eeeeee";
	*bottom = "#eeeeb0";
	if (!bg)
		bg = bg_default(kind);
	if (strcmp(bg, "blue") == 0)
		*bottom = "#e0e0ff";
	else if (strcmp(bg, "green") == 0)
		*top = "#eef2ee", *bottom = "#e0ffe0";
	else if (strcmp(bg, "grey") == 0)
		*top = "#f8f8f8", *bottom = "#e8e8e8";
	else if (bg[0] == '#')
		*top = *bottom = bg;
}

struct fold_palette *
fold_palette_new(enum fold_palette_kind kind, int hash, int random)
{
	struct fold_palette *p = fold_calloc(1, sizeof *p);

	p->kind = kind;
	p->hash = hash;
	p->random = random;
	if (random)
		p->rng = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^
		    0x9e3779b97f4a7c15ULL;
	return p;
}

static void
map_free(struct fold_palette *p)
{
	size_t i;

	for (i = 0; i < p->ncolors; i++)
		free(p->colors[i]);
	free(p->colors);
	fold_intern_free(p->names);
	p->colors = NULL;
	p->ncolors = 0;
	p->names = NULL;
	p->dirty = 0;
}

void
fold_palette_free(struct fold_palette *p)
{
	if (!p)
		return;
	map_free(p);
	free(p);
}

/* ---- a colour from a name ---- */

/* flamegraph.pl's namehash: early characters weigh most. */
static double
namehash(const char *s, size_t n)
{
	double vector = 0, weight = 1, max = 1;
	const char *bt;
	int mod = 10;
	size_t i;

	/* a "module`function" name loses its module */
	if (n > 1 && (bt = memchr(s + 1, '`', n - 1))) {
		n -= bt + 1 - s;
		s = bt + 1;
	}
	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i] % mod;
		vector += ((double)c / (mod++ - 1)) * weight;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}

static double
rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (double)(*s >> 11) / 9007199254740992.0;
}

/*
 * A Java method as JFR and async-profiler name it, dotted: segments of
 * identifier bytes ('$' too) up to a '(' or the end, one of them before
 * the method a class (a capital first): java.util.HashMap.get,
 * demo.Workload.fib(int). C names with dots (__kmalloc_reserve.isra.26)
 * have no class segment.
 */
static int
dotted_java(const char *s, size_t n)
{
	size_t i, seg = 0, dots = 0;
	int cls = 0, start = 1;

	for (i = 0; i < n && s[i] != '('; i++) {
		unsigned char c = s[i];
		if (c == '.') {
			if (start)
				return 0;	/* an empty segment */
			dots++;
			start = 1;
			continue;
		}
		if (!fold_isident(c) && c != '$')
			return 0;
		if (start) {
			if (c >= 'A' && c <= 'Z')
				cls = 1 + (int)dots;	/* the segment's number */
			seg = dots;
			start = 0;
		}
	}
	/* a class segment followed by another: Class.method */
	return !start && dots > 0 && cls > 0 && (size_t)cls - 1 < seg;
}

/* The frames V8 names for time outside JavaScript. */
static int
v8_pseudo(const char *s, size_t n)
{
	static const char *const names[] = { "(garbage collector)",
	    "(program)", "(idle)" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof *names; i++)
		if (n == strlen(names[i]) && memcmp(s, names[i], n) == 0)
			return 1;
	return 0;
}

/* The hues a name of that palette takes: java, perl, js by language. */
static enum fold_palette_kind
hues(enum fold_palette_kind kind, const char *s, size_t n)
{
	switch (kind) {
	case FOLD_PALETTE_JAVA:
		if (fold_endswith(s, n, "_[j]"))
			return FOLD_PALETTE_GREEN;
		if (fold_endswith(s, n, "_[i]"))
			return FOLD_PALETTE_AQUA;
		{
			const char *p = s + (n && s[0] == 'L');
			size_t m = n - (p - s);
			static const char *const pk[] = { "java/", "javax/",
			    "jdk/", "net/", "org/", "com/", "io/", "sun/" };
			size_t i;
			for (i = 0; i < sizeof pk / sizeof *pk; i++)
				if (m >= strlen(pk[i]) &&
				    memcmp(p, pk[i], strlen(pk[i])) == 0)
					return FOLD_PALETTE_GREEN;
		}
		if (fold_contains(s, n, ":::") || dotted_java(s, n))
			return FOLD_PALETTE_GREEN;
		if (fold_contains(s, n, "::"))
			return FOLD_PALETTE_YELLOW;
		if (fold_endswith(s, n, "_[k]"))
			return FOLD_PALETTE_ORANGE;
		return FOLD_PALETTE_RED;
	case FOLD_PALETTE_PERL:
		if (fold_contains(s, n, "::"))
			return FOLD_PALETTE_YELLOW;
		if (fold_contains(s, n, "Perl") || fold_contains(s, n, ".pl"))
			return FOLD_PALETTE_GREEN;
		if (fold_endswith(s, n, "_[k]"))
			return FOLD_PALETTE_ORANGE;
		return FOLD_PALETTE_RED;
	case FOLD_PALETTE_JS: {
		const char *sl = memchr(s, '/', n);
		/* perf's JIT names: source with a path, builtins tagged
		   "Builtin:" and the like; a bare name is a function of a
		   script, as stackcollapse-chrome marks one */
		if (fold_endswith(s, n, "_[j]"))
			return sl || !memchr(s, ':', n) ? FOLD_PALETTE_GREEN :
			    FOLD_PALETTE_AQUA;
		if (fold_contains(s, n, "::"))
			return FOLD_PALETTE_YELLOW;
		if (sl && fold_contains(sl, n - (sl - s), ".js"))
			return FOLD_PALETTE_GREEN;
		if (memchr(s, ':', n))
			return FOLD_PALETTE_AQUA;
		if (n == 1 && s[0] == ' ')
			return FOLD_PALETTE_GREEN;
		if (fold_contains(s, n, "_[k]"))
			return FOLD_PALETTE_ORANGE;
		/* V8's own time in a .cpuprofile, its C++ */
		if (v8_pseudo(s, n))
			return FOLD_PALETTE_YELLOW;
		return FOLD_PALETTE_RED;
	}
	case FOLD_PALETTE_WAKEUP:
		return FOLD_PALETTE_AQUA;
	case FOLD_PALETTE_CHAIN:
		return fold_contains(s, n, "_[w]") ? FOLD_PALETTE_AQUA :
		    FOLD_PALETTE_BLUE;
	default:
		return kind;
	}
}

/*
 * Each channel of each hue is base + (int)(range * v[shade]), the shades
 * v[0..2] drawn from the name; flamegraph.pl's numbers. The palettes that
 * only pick hues (java, js, ...) never get here and stay black.
 */
static const struct ramp {
	unsigned char base, range, shade;
} ramps[][3] = {
	[FOLD_PALETTE_HOT] = { {205, 50, 2}, {0, 230, 0}, {0, 55, 1} },
	[FOLD_PALETTE_MEM] = { {0, 0, 0}, {190, 50, 1}, {0, 210, 0} },
	[FOLD_PALETTE_IO] = { {80, 60, 0}, {80, 60, 0}, {190, 55, 1} },
	[FOLD_PALETTE_RED] = { {200, 55, 0}, {50, 80, 0}, {50, 80, 0} },
	[FOLD_PALETTE_GREEN] = { {50, 60, 0}, {200, 55, 0}, {50, 60, 0} },
	[FOLD_PALETTE_BLUE] = { {80, 60, 0}, {80, 60, 0}, {205, 50, 0} },
	[FOLD_PALETTE_YELLOW] = { {175, 55, 0}, {175, 55, 0}, {50, 20, 0} },
	[FOLD_PALETTE_PURPLE] = { {190, 65, 0}, {80, 60, 0}, {190, 65, 0} },
	[FOLD_PALETTE_AQUA] = { {50, 60, 0}, {165, 55, 0}, {165, 55, 0} },
	[FOLD_PALETTE_ORANGE] = { {190, 65, 0}, {90, 65, 0}, {0, 0, 0} },
};

/* The shades of a name: hashed, flamegraph.pl's namehash, or random. */
static void
shades(struct fold_palette *p, const char *s, size_t n, double v[3])
{
	if (p->random) {
		v[0] = rng_next(&p->rng);
		v[1] = rng_next(&p->rng);
		v[2] = rng_next(&p->rng);
	} else if (p->hash) {
		char *rev = fold_strndup(s, n);
		for (size_t i = 0; i < n / 2; i++) {
			char t = rev[i];
			rev[i] = rev[n - 1 - i];
			rev[n - 1 - i] = t;
		}
		v[0] = namehash(s, n);
		v[1] = v[2] = namehash(rev, n);
		free(rev);
	} else {
		uint64_t h = fold_fnv1a(FOLD_FNV1A_INIT, s, n);
		h ^= h >> 29;
		h *= 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 32;
		v[0] = (double)(h & 0x1fffff) / 2097152.0;
		v[1] = (double)(h >> 21 & 0x1fffff) / 2097152.0;
		v[2] = (double)(h >> 42 & 0x1fffff) / 2097152.0;
	}
}

/* The colour of the name s[0..n) into buf, map or no map. */
static void
name_color(struct fold_palette *p, const char *s, size_t n, char *buf)
{
	const struct ramp *rgb;
	double v[3];
	int c[3], i;

	shades(p, s, n, v);
	rgb = ramps[hues(p->kind, s, n)];
	for (i = 0; i < 3; i++)
		c[i] = rgb[i].base + (int)(rgb[i].range * v[rgb[i].shade]);
	snprintf(buf, FOLD_COLOR_BUFSZ, "rgb(%d,%d,%d)", c[0], c[1], c[2]);
}

const char *
fold_palette_color(struct fold_palette *p, const char *s, size_t n)
{
	uint32_t id;

	if (!p->names) {
		name_color(p, s, n, p->buf);
		return p->buf;
	}
	id = fold_intern(p->names, s, n);
	if (id >= p->ncolors) {
		name_color(p, s, n, p->buf);
		p->colors = fold_reallocarray(p->colors, id + 1,
		    sizeof *p->colors);
		p->colors[id] = fold_strdup(p->buf);
		p->ncolors = id + 1;
		p->dirty = 1;
	}
	return p->colors[id];
}

int
fold_palette_pure(const struct fold_palette *p)
{
	return !p->random && !p->names;
}

const char *
fold_palette_color_buf(struct fold_palette *p, const char *s, size_t n,
    char *buf)
{
	if (!fold_palette_pure(p))
		return fold_palette_color(p, s, n);
	name_color(p, s, n, buf);
	return buf;
}

void
fold_palette_delta(double delta, double max, int negate, char *buf)
{
	int r = 255, gr = 255, b = 255;

	if (negate)
		delta = -delta;
	if (delta > 0)
		gr = b = (int)(210 * (max - delta) / max);
	else if (delta < 0)
		r = gr = (int)(210 * (max + delta) / max);
	snprintf(buf, FOLD_COLOR_BUFSZ, "rgb(%d,%d,%d)", r, gr, b);
}

/* An sRGB component, 0..255, as linear light 0..1 (WCAG 2). */
static double
linear(int v)
{
	double c = v / 255.0;

	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

int
fold_palette_dark(const char *fill)
{
	int c[3], n = 0;
	unsigned x;
	double l;

	if (ishex6(fill) && sscanf(fill + 1, "%6x", &x) == 1) {
		c[0] = x >> 16;
		c[1] = x >> 8 & 0xff;
		c[2] = x & 0xff;
	} else if (sscanf(fill, "rgb(%d,%d,%d)%n", &c[0], &c[1], &c[2],
	    &n) != 3 || n == 0 || fill[n] != '\0')
		return 0;
	l = 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) +
	    0.0722 * linear(c[2]);
	/* the contrast ratios (L1 + 0.05) / (L2 + 0.05) against white, 1,
	   and black, 0, are equal where (l + 0.05)^2 = 1.05 * 0.05 */
	return (l + 0.05) * (l + 0.05) < 1.05 * 0.05;
}

/* ---- the map file ---- */

int
fold_palette_load(struct fold_palette *p, const char *path)
{
	struct fold_in *in;
	const char *line;
	size_t len;
	int r;

	map_free(p);
	p->names = fold_intern_new();
	if (access(path, F_OK) != 0)
		return 0;
	if (!(in = fold_in_open(path)))
		return -1;
	while ((r = fold_in_line(in, &line, &len)) > 0) {
		const char *arrow = NULL, *a;
		uint32_t id;
		/* the last "->": names may hold one (C++ operator->) */
		for (a = line; (a = memmem(a, line + len - a, "->", 2)); a++)
			arrow = a;
		if (!arrow)
			continue;
		id = fold_intern(p->names, line, arrow - line);
		if (id >= p->ncolors) {
			p->colors = fold_reallocarray(p->colors, id + 1,
			    sizeof *p->colors);
			p->ncolors = id + 1;
		} else
			free(p->colors[id]);
		p->colors[id] = fold_strndup(arrow + 2,
		    line + len - arrow - 2);
	}
	if (fold_in_close(in) < 0)
		r = -1;
	return r;
}

static int
cmpname(const void *a, const void *b, void *arg)
{
	return fold_intern_cmp(arg, *(const uint32_t *)a, *(const uint32_t *)b);
}

int
fold_palette_save(struct fold_palette *p, const char *path)
{
	struct fold_out *o;
	uint32_t *order;
	size_t i, n;
	const char *s;

	if (!p->names || !p->dirty)
		return 0;
	if (!(o = fold_out_open(path)))
		return -1;
	order = fold_reallocarray(NULL, p->ncolors ? p->ncolors : 1,
	    sizeof *order);
	for (i = 0; i < p->ncolors; i++)
		order[i] = i;
	qsort_r(order, p->ncolors, sizeof *order, cmpname, p->names);
	for (i = 0; i < p->ncolors; i++) {
		s = fold_intern_str(p->names, order[i], &n);
		fold_out_write(o, s, n);
		fold_out_puts(o, "->");
		fold_out_puts(o, p->colors[order[i]]);
		fold_out_putc(o, '\n');
	}
	free(order);
	return fold_out_close(o);
}
