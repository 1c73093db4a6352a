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

/* What was read, for the command's summary. */
struct bcc_stats {
	uint64_t stacks;	/* stacks added */
	uint64_t empty;		/* dropped: entries without any frame */
	struct fold_count emptytotal;	/* their counts */
	uint64_t nostack;	/* dropped: bpftrace entries whose key holds
				   no stack (other maps, @[]) */
	uint64_t bad;		/* dropped with a warning */
	uint64_t multiline, folded, bpftrace;	/* entries of each form */
	char toolwarn[256];	/* the first "WARNING: ..." line of the input */
};

struct bcc_reader;

/*
 * The format's descriptor (its options a struct bcc_opt).
 *
 * Each input is read whole. Bad lines and entries are counted in diag.
 * Returns 0; -1 with a message on a read error (what was read before is
 * kept); -2 with a message on a strict warning or a count overflow.
 */
extern const struct format bcc_format;

/* Totals over every input read so far. */
const struct bcc_stats *bcc_reader_stats(const struct bcc_reader *r);

/*
 * FOLD_DETECT_SURE (2) when head[0..n) shows a form only these tools print:
 * a bpftrace map entry ("@name[" or "@name: "), their banners ("Tracing
 * ...", "Attaching N probes..."), python bytes frames (b'...'), the "-
 * comm (pid)", "--", "target:" or "waker:" lines of the multi-line form;
 * else 0 (bcc's -f output is folded stacks, read as such).
 */
int bcc_detect(const char *head, size_t n, int eof);

/*
 * Cleans one frame as printed by any of the tools into buf (at least
 * n + 16 bytes): leading addresses and "#N", "+0x1f"/"+31" offsets and
 * perf-mode " (module)" are dropped, b'...' is decoded, ';' and control
 * bytes become '_', an unknown symbol becomes "[unknown]" or "[module]".
 * Returns the length; *kernel is set to 1 or 0 when an address or module
 * tells, -1 otherwise.
 */
size_t bcc_frame(const char *s, size_t n, char *buf, int *kernel);

/*
 * 1 when name is a function that only the kernel has: system call and
 * interrupt entry code (entry_SYSCALL_64, asm_sysvec_*, el0t_64_sync),
 * the scheduler (schedule, __schedule), kernel thread roots (kthread,
 * ret_from_fork) and BPF trampolines. Stacks that show no address are
 * split into user and kernel frames by these.
 */
int bcc_kernel_name(const char *name, size_t n);

#endif
