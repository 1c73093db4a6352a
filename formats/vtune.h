/*
 * Intel VTune "Top-down Tree" CSV to folded stacks.
 *
 * What `vtune -report top-down -call-stack-mode all -column="CPU
 * Time:Self","Module" -format csv -csv-delimiter comma` writes (amplxe-cl
 * of older releases too):
 *
 *	Function Stack,CPU Time:Self,Module
 *	Total,0.0,[Unknown]
 *	 RtlUserThreadStart,0.0,ntdll.dll
 *	  "std::vec<int, alloc>::push",0.016612,app.exe
 *
 * One line a node of the call tree, indented one blank a level, its own
 * (self) CPU time in seconds. Columns are found by their names in the
 * header, so others may come along and the delimiter may be any of
 * , ; TAB |; lines before the header (VTune's "war:" notes) are skipped. A
 * UTF-8 byte order mark, CRLF line ends and quoted names with delimiters
 * or "" inside are read. Each node with self time becomes one stack, root
 * first, counted in milliseconds (rounded to the nearest, halves up);
 * frames are "module`function" (just "function" without a module).
 */
#ifndef FORMATS_VTUNE_H
#define FORMATS_VTUNE_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

struct vtune_opt {
	int no_modules;		/* frames are the function names alone */
};

#define VTUNE_OPT_INIT { 0 }

struct vtune_reader;

/*
 * The format's descriptor (its options a struct vtune_opt).
 *
 * Each input is read whole. A bad line is a warning counted in diag; the
 * lines under it in the tree are dropped with it. Returns 0; -1 with a
 * message in fold_err when this input failed (what was read before is
 * kept); -2 with a message on a strict warning or a count overflow.
 */
extern const struct format vtune_format;
extern const struct format_id vtune_id;

#endif
