/*
 * DTrace aggregations of stacks to folded stacks.
 *
 * What dtrace(1M) prints for @[stack()], @[ustack()], @[jstack()] or a
 * key of several of them: a header up to the first blank line (the
 * probe table "CPU ID FUNCTION:NAME", or nothing but the blank line
 * under -q), then one entry a stack: frame lines leaf first
 * ("module`function+0x1c", "0x7fff5a3b", "module`0xfffffffffb8001d6"),
 * blank lines between the stacks of a key, then the value alone on a
 * line.
 *
 * Frames are cleaned as FlameGraph's stackcollapse.pl and inferno do:
 * the "+offset" is dropped (kept with includeoffset, but for the leaf),
 * C++ argument lists go ("ns::f(int)" -> "ns::f"), Rust symbols left
 * half mangled are demangled, and a jstack() frame holding inlined
 * methods ("a->b->c") becomes one frame each, those after the first
 * marked "_[i]". A key with several stacks comes out as one stack, the
 * last printed (ustack() after stack()) at the root.
 */
#ifndef FORMATS_DTRACE_H
#define FORMATS_DTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/count.h"
#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

struct dtrace_opt {
	int includeoffset;	/* keep "+0x1c" offsets but the leaf's */
};

#define DTRACE_OPT_INIT { 0 }

struct dtrace_reader;

/*
 * The format's descriptor (its options a struct dtrace_opt).
 *
 * Each input is read whole. Bad lines and entries are counted in diag.
 * Returns 0; -1 with a message on a read error (what was read before is
 * kept, other inputs may still be read); -2 with a message on a strict
 * warning or a count overflow (fatal for the whole run).
 */
extern const struct format dtrace_format;
extern const struct format_id dtrace_id;

/*
 * How sure it is that an input starting with head[0..n) is DTrace
 * output (eof: that is the whole input): 0 no, 1 could be, 2 surely.
 * Past the header (at most 8 lines up to a blank one), the first entry
 * must be indented frame lines, one at least "module`name" or a bare 0x
 * address, up to an indented count.
 */
int dtrace_detect(const char *head, size_t n, int eof);

#endif
