/*
 * Folded stacks (libfold/folded.h) as a format: stackcollapse passes them
 * through, and every tool that reads them reads a large file in parts on
 * threads (formats/split.h).
 */
#ifndef FOLD_FORMATS_FOLDED_H
#define FOLD_FORMATS_FOLDED_H

#include "libfold/diag.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"
#include "formats/split.h"

extern const struct format folded_format;
extern const struct format_id folded_id;

/*
 * fold_read(in, st, opt, diag) (opt's unitlines is not used), the file
 * read in parts as o says (split_read): the same stacks, messages and
 * return value. Parts are not read for a rewrite (opt->rewrite), nor
 * under strict (the first warning fails the input), nor when what the
 * parts found could add up otherwise than the lines in order: a unit
 * line among them, a fractional count in them or in st, or no stack of
 * the input in st before them.
 */
int folded_read(struct fold_in *in, struct fold_stacks *st,
    const struct fold_readopt *opt, struct fold_diag *diag,
    const struct split_opt *o);

#endif
