/*
 * Visual Studio profiler call tree CSV to folded stacks.
 *
 * What Visual Studio's instrumentation profiler exports as its call tree
 * ("CallTreeSummary.csv"):
 *
 *	Level,Function Name,Number of Calls,Elapsed Inclusive Time %,...
 *	0,"App.exe",0,100.00,0.00,0.00,0.00,"",
 *	1,"App.Main()",1,8.75,0.69,"18,160.51","1,426.50","App.exe",
 *	2,"App.Run(float64,float64)","2,893,824",...
 *
 * One line a node of the tree, with its level and its number of calls
 * (thousands grouped with ',', the field then quoted). The first line is
 * the header; columns are found there by name. The level 0 node (the
 * process) is not a frame. Counts are numbers of calls, as inferno's
 * collapser takes them: a node is counted its calls less those of the
 * child just left when the tree goes back up to it, when that is fewer,
 * and is not written when its count equals that child's.
 */
#ifndef FORMATS_VSPROF_H
#define FORMATS_VSPROF_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

struct vsprof_opt {
	int unused;
};

#define VSPROF_OPT_INIT { 0 }

struct vsprof_reader;

/*
 * The format's descriptor (its options a struct vsprof_opt).
 *
 * Each input is read whole. A bad line is a warning counted in diag; the
 * lines under it are dropped with it. Returns 0; -1 with a message in
 * fold_err when this input failed (no header: not this format); -2 with
 * a message on a strict warning or a count overflow.
 */
extern const struct format vsprof_format;
extern const struct format_id vsprof_id;

#endif
