/*
 * Attributes per frame name for flame graphs (flamegraph.pl's
 * --nameattr).
 *
 * The file holds lines "NAME<tab>KEY=VALUE<tab>KEY=VALUE...": title
 * replaces the frame's tooltip, href makes it a link (opened in target),
 * any other key becomes an attribute of the frame's group. Keys must be
 * plain XML names, and id, g_extra and a_extra are refused, so a file
 * cannot break the document; values are the writer's to escape. A name
 * given twice keeps the last title, href and target and all other keys.
 *
 *	struct fold_nameattr *na = fold_nameattr_load("attrs.txt");
 *	const struct fold_frameattr *a = fold_nameattr_find(na, name, len);
 *	fold_nameattr_free(na);
 */
#ifndef FORMATS_NAMEATTR_H
#define FORMATS_NAMEATTR_H

#include <stddef.h>

/* The attributes of one frame name; strings NUL-terminated or NULL. */
struct fold_frameattr {
	char *title, *href, *target;
	char **kv;		/* other keys: key, value, key, value ... */
	size_t nkv;		/* length of kv, twice the number of keys */
};

/*
 * Reads the attribute file at path. Returns the table (the caller owns
 * it, fold_nameattr_free), or NULL with a message "FILE:LINE: ..." when
 * the file cannot be read or a line is malformed.
 */
struct fold_nameattr *fold_nameattr_load(const char *path);

/*
 * The attributes of the frame named s[0..n), or NULL when the file names
 * no such frame. They belong to na.
 */
const struct fold_frameattr *fold_nameattr_find(const struct fold_nameattr *na,
    const char *s, size_t n);

/* Frees na and its attributes; na may be NULL. */
void fold_nameattr_free(struct fold_nameattr *na);

#endif
