/*
 * macOS sample(1) reports to folded stacks.
 *
 * A report ("Analysis of sampling NAME (pid N) every 1 millisecond")
 * holds, after a "Call graph:" line, one call tree a thread: each line
 * four spaces, then two indentation characters (' ', '+', '|', ':',
 * '!') a level, the number of samples in the function and what it
 * called, and the function:
 *
 *	    825 Thread_15758535
 *	    + 825 thread_start  (in libsystem_pthread.dylib) + 13  [0x7fff739c240d]
 *	    +   825 _pthread_start  (in libsystem_pthread.dylib) + 66  [0x7fff739c6249]
 *
 * up to a "Total number in stack" line. Each function's own samples
 * (its count less its callees') become one folded stack, the thread at
 * the root and "module`function" frames (".dylib" dropped). Stacks
 * whose leaf is a function where threads wait (mach_msg_trap,
 * __psynch_cvwait, __ulock_wait, ...) are dropped, as FlameGraph's
 * stackcollapse-sample.awk and inferno do, and counted.
 */
#ifndef FORMATS_SAMPLE_H
#define FORMATS_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/count.h"
#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

struct sample_opt {
	int no_modules;		/* "function", not "module`function" */
};

#define SAMPLE_OPT_INIT { 0 }

struct sample_reader;

/*
 * The format's descriptor (its options a struct sample_opt).
 *
 * Reads one whole input (one report or several in a row). Bad lines are
 * counted in diag. Returns 0; -1 with a message on a read error (what
 * was read before is kept, other inputs may still be read); -2 with a
 * message on a strict warning or a count overflow (fatal for the whole
 * run).
 */
extern const struct format sample_format;
extern const struct format_id sample_id;

/*
 * How sure it is that an input starting with head[0..n) is a sample
 * report (eof: that is the whole input): 0 no, 1 could be, 2 surely.
 */
int sample_detect(const char *head, size_t n, int eof);

#endif
