/*
 * eBPF stack tools (bcc, libbpf-tools, bpftrace) to folded stacks.
 *
 * Each line is recognised by its form, so that every input below is read
 * without being told which it is:
 *
 *   - the multi-line form of bcc's python tools (profile, offcputime,
 *     offwaketime, wakeuptime, stackcount) and of libbpf-tools
 *     (offcputime, wakeuptime): indented frames leaf first, maybe a "--"
 *     line between kernel and user frames, a "-  comm (pid)",
 *     "target: comm" or "waker: comm" line, then an indented count.
 *     Names may be python bytes (b'func'), addresses may lead the names
 *     ("ffffffff81234567 func", "#3  0x7f12... func+0x4f (libc.so.6)").
 *   - folded lines ("comm;a;b 12", bcc's -f), checked and kept as they
 *     are.
 *   - bpftrace maps: "@name[key, ...]: N", where each stack in the key
 *     (ustack, kstack, ustack(perf), ...) is a block of indented lines
 *     (or of lines whose indentation was lost: inside a key, any line
 *     that neither goes on with ", " nor ends the key with "]").
 *   - banners ("Tracing ...", "Attaching 1 probe...", "Detaching...")
 *     and blank lines, skipped.
 *
 * Stacks come out as "comm;user frames root first;kernel frames": the
 * comm line, or bpftrace's other key values, at the root. For
 * offwaketime and wakeuptime the whole block is turned over, as bcc's
 * own -f does: target at the root, waker on top, "--" between their
 * stacks. Counts are kept as the tool printed them (microseconds for
 * offcputime, samples for profile).
 */
#ifndef FORMATS_BCC_H
#define FORMATS_BCC_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/count.h"
#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/stacks.h"
#include "formats/format.h"

struct bcc_opt {
	int pid;		/* root frame "comm-PID" where the pid is shown */
	int kernel;		/* suffix kernel frames "_[k]" */
	const char *map;	/* bpftrace: this map only ("@name" or "name",
				   "@" for the unnamed map); NULL: all */
};

#define BCC_OPT_INIT { 0 }

struct bcc_reader;

/*
 * The format's descriptor (its options a struct bcc_opt).
 *
 * Each input is read whole. Bad lines and entries are counted in diag.
 * Returns 0; -1 with a message on a read error (what was read before is
 * kept); -2 with a message on a strict warning or a count overflow.
 */
extern const struct format bcc_format;
extern const struct format_id bcc_id;

#endif
