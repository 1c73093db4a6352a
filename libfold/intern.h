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

/* Returns the id of s[0..n), adding it if new. */
uint32_t fold_intern(struct fold_intern *t, const char *s, size_t n);

/* Returns the id of s[0..n), or FOLD_NOFRAME when it was never added. */
uint32_t fold_intern_find(const struct fold_intern *t, const char *s, size_t n);

/* The name of id (NUL terminated, owned by t, stable); *len if not NULL. */
const char *fold_intern_str(const struct fold_intern *t, uint32_t id,
    size_t *len);

/* Number of distinct names: ids run from 0 to this minus one. */
size_t fold_intern_count(const struct fold_intern *t);

/* Byte-order comparison of two names (a prefix sorts first). */
int fold_intern_cmp(const struct fold_intern *t, uint32_t a, uint32_t b);

/* 64-bit hash of a byte string, used by every libfold table. */
uint64_t fold_hash(const void *p, size_t n);

#endif
