/*
 * Frame interning.
 *
 * Every distinct frame name is stored once, in an arena, and named by a
 * dense id (0, 1, 2, ... in order of first appearance). Stacks, trees and
 * filters work on ids; comparing two ids for equality compares names.
 * Names are byte strings of any content (the folded format itself keeps
 * ';' and newline out of them); each is stored NUL terminated.
 */
#ifndef FOLD_INTERN_H
#define FOLD_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct fold_intern;

#define FOLD_NOFRAME UINT32_MAX

struct fold_intern *fold_intern_new(void);
void fold_intern_free(struct fold_intern *t);

/*
 * A number no other table of the process has had: what a cache of ids
 * tells its table by (a table freed and another made may share an
 * address).
 */
uint64_t fold_intern_serial(const struct fold_intern *t);

/* A new table of t's names, each with the id it has in t. */
struct fold_intern *fold_intern_copy(const struct fold_intern *t);

/* Returns the id of s[0..n), adding it if new. */
uint32_t fold_intern(struct fold_intern *t, const char *s, size_t n);

/*
 * Interns every ';'-separated name of s[0..n) ("a;b;c"), storing their ids
 * at (*ids)[k...], growing *ids (of *cap entries) as needed. Returns the
 * new k. Faster than one fold_intern() a name.
 */
size_t fold_intern_stack(struct fold_intern *t, const char *s, size_t n,
    uint32_t **ids, size_t *cap, size_t k);

/*
 * The reverse: writes the names of ids[0..n) joined by ';' at
 * (*buf)[off...], growing *buf (of *cap bytes) as needed, and returns the
 * length of the whole: off plus the joined text. Bytes past it may be
 * overwritten, up to *cap.
 */
size_t fold_intern_join(const struct fold_intern *t, const uint32_t *ids,
    size_t n, char **buf, size_t *cap, size_t off);

/* Returns the id of s[0..n), or FOLD_NOFRAME when it was never added. */
uint32_t fold_intern_find(const struct fold_intern *t, const char *s, size_t n);

/* The name of id (NUL terminated, owned by t, stable); *len if not NULL. */
const char *fold_intern_str(const struct fold_intern *t, uint32_t id,
    size_t *len);

/* Number of distinct names: ids run from 0 to this minus one. */
size_t fold_intern_count(const struct fold_intern *t);

/* Byte-order comparison of two names (a prefix sorts first). */
int fold_intern_cmp(const struct fold_intern *t, uint32_t a, uint32_t b);

#endif
