/*
 * The colours of flame graph frames, as flamegraph.pl picks them.
 *
 * A palette (--colors) gives each frame a colour from its name: a family
 * of hues chosen by what the name looks like (a Java package, a Perl
 * module, a kernel frame "_[k]" ...), and a shade within it from a hash
 * of the name, so the same name gets the same colour in every graph. The
 * hash is FNV-1a (fold_fnv1a), or flamegraph.pl's own name hash (--hash); only
 * --random draws shades from a random source. A palette map file (--cp)
 * keeps colours consistent across graphs: names found in it keep their
 * colour, new names are added. A differential graph colours each frame
 * by its change instead (fold_palette_delta), from white to saturated
 * red or blue, and so needs white labels on the darkest
 * (fold_palette_dark).
 *
 *	struct fold_palette *p = fold_palette_new(FOLD_PALETTE_HOT, 0, 0);
 *	fold_palette_load(p, "palette.map");	(optional)
 *	color = fold_palette_color(p, name, len);	(per frame)
 *	fold_palette_save(p, "palette.map");
 *	fold_palette_free(p);
 */
#ifndef FORMATS_PALETTE_H
#define FORMATS_PALETTE_H

#include <stddef.h>
#include <stdint.h>

/* The palettes of --colors, named as in flamegraph.pl. */
enum fold_palette_kind {
	FOLD_PALETTE_HOT, FOLD_PALETTE_MEM, FOLD_PALETTE_IO,
	FOLD_PALETTE_WAKEUP, FOLD_PALETTE_CHAIN, FOLD_PALETTE_JAVA,
	FOLD_PALETTE_JS, FOLD_PALETTE_PERL, FOLD_PALETTE_RED,
	FOLD_PALETTE_GREEN, FOLD_PALETTE_BLUE, FOLD_PALETTE_AQUA,
	FOLD_PALETTE_YELLOW, FOLD_PALETTE_PURPLE, FOLD_PALETTE_ORANGE
};

/* Room for a colour this module writes: "rgb(255,255,255)" and a NUL. */
#define FOLD_COLOR_BUFSZ 32

/*
 * Looks up a --colors name ("hot", "java", ...). Returns 0 and sets
 * *kind, or -1 with a message listing the names.
 */
int fold_palette_parse(const char *name, enum fold_palette_kind *kind);

/*
 * Checks a --bgcolors value: yellow, blue, green, grey or #rrggbb.
 * Returns 0, or -1 with a message.
 */
int fold_palette_bgcheck(const char *s);

/*
 * The two stops of the background gradient (top and bottom) for the
 * --bgcolors value bg (checked by fold_palette_bgcheck), or when bg is
 * NULL the palette's own background. The strings are constants or bg.
 */
void fold_palette_background(enum fold_palette_kind kind, const char *bg,
    const char **top, const char **bottom);

/*
 * A new palette of that kind; hash: flamegraph.pl's name hash instead
 * of FNV-1a; random: random shades, seeded from the time and the process
 * id. The caller owns the result (fold_palette_free).
 */
struct fold_palette *fold_palette_new(enum fold_palette_kind kind, int hash,
    int random);

/* Frees p, with its map; p may be NULL. */
void fold_palette_free(struct fold_palette *p);

/*
 * The colour of the frame named s[0..n), as "rgb(r,g,b)" or, for a name
 * of the map, what the map gives. A name not in the map (when one is
 * loaded) is added to it. The string belongs to p and holds until the
 * next call on p.
 */
const char *fold_palette_color(struct fold_palette *p, const char *s,
    size_t n);

/*
 * 1 when a frame's colour depends on its name alone (no --random shades,
 * no map): then fold_palette_color_buf may be called on several threads
 * at once.
 */
int fold_palette_pure(const struct fold_palette *p);

/*
 * fold_palette_color, made in buf (FOLD_COLOR_BUFSZ bytes) when p is
 * pure; else fold_palette_color's string.
 */
const char *fold_palette_color_buf(struct fold_palette *p, const char *s,
    size_t n, char *buf);

/*
 * Starts a palette map from the file at path, lines "NAME->COLOR" (the
 * last "->" splits, names may hold one), or from nothing when no file is
 * there; from then on fold_palette_color answers from the map first.
 * Replaces a map loaded before. Returns 0, or -1 with a message when the
 * file cannot be read.
 */
int fold_palette_load(struct fold_palette *p, const char *path);

/*
 * Writes the map back to path, sorted by name, when fold_palette_color
 * added a name to it since it was loaded; else leaves the file as it is.
 * Returns 0, or -1 with a message.
 */
int fold_palette_save(struct fold_palette *p, const char *path);

/*
 * flamegraph.pl's differential colour for a frame whose own count
 * changed by delta, max being the largest change (> 0): red for growth,
 * blue for loss, white for none, swapped when negate. Writes
 * "rgb(r,g,b)" to buf (FOLD_COLOR_BUFSZ bytes).
 */
void fold_palette_delta(double delta, double max, int negate, char *buf);

/*
 * 1 when a label on the fill colour ("rgb(r,g,b)" or "#rrggbb") reads
 * better in white than in black: when white has the higher contrast
 * ratio (WCAG 2's relative luminance) on it, as on saturated blue. 0
 * for a light fill and for a colour it cannot read.
 */
int fold_palette_dark(const char *fill);

#endif
