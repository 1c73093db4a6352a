/*
 * What the readers of indented call-tree reports share (Intel VTune's
 * top-down tree, the Visual Studio profiler's call tree, GHC's .prof):
 * a bad line is dropped with the lines under it, which are counted and
 * told once, at the end of the run.
 */
#ifndef FORMATS_CALLTREE_H
#define FORMATS_CALLTREE_H

#include <stdint.h>

#include "libfold/diag.h"

/*
 * Says "N lines under bad lines dropped" ("1 line" for one) through
 * say, unless under, the count of lines dropped under bad ones, is 0.
 */
void calltree_say_under(uint64_t under, fold_say_fn *say, void *arg);

#endif
