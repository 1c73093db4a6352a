/*
 * GHC profiling reports (.prof, from a program built with -prof and run
 * with +RTS -p or -P) to folded stacks.
 *
 * The call tree follows a header line naming its columns:
 *
 *	COST CENTRE  MODULE  SRC  no.  entries  %time %alloc   %time %alloc  ticks  bytes
 *
 *	MAIN         MAIN    <built-in>  168  0   2.6    0.0   100.0  100.0    510  456096
 *	 CAF         Lib     <no location info>  ...
 *
 * (SRC since GHC 8; ticks and bytes with -P.) One line a cost centre,
 * indented one blank a level. Each becomes the stack from MAIN down to it,
 * frames "Module.name", counted by one of its individual columns (they
 * leave out the children): %time in tenths of a percent (the default),
 * ticks or bytes. Every cost centre is written, with a count of 0 too, as
 * inferno does. The numbers are read from the right of the line, so that
 * a SRC with blanks ("<no location info>") or a column wider than its
 * header does not matter. The tree ends at a blank line; reports joined
 * into one input are each read.
 */
#ifndef FORMATS_GHCPROF_H
#define FORMATS_GHCPROF_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

enum ghcprof_source { GHCPROF_TIME, GHCPROF_TICKS, GHCPROF_BYTES };

struct ghcprof_opt {
	int source;		/* the column counted: an enum ghcprof_source */
};

#define GHCPROF_OPT_INIT { .source = GHCPROF_TIME }

struct ghcprof_reader;

/*
 * The format's descriptor (its options a struct ghcprof_opt).
 *
 * Each input is read whole. A bad line is a warning counted in diag; the
 * lines under it are dropped with it. Returns 0; -1 with a message in
 * fold_err when this input failed (the column asked for is not in the
 * report); -2 with a message on a strict warning or a count overflow.
 */
extern const struct format ghcprof_format;
extern const struct format_id ghcprof_id;

#endif
