/*
 * pprof profiles (perftools.profiles, see profile.proto) to and from
 * folded stacks.
 *
 * Reading: each profile (gzipped or raw protobuf) is framed field by
 * field at the top level and every message in it (samples, locations,
 * functions, mappings, sample types) is decoded (pprofdec.h) into tables
 * capped at max_size bytes. Tables are decoded first, then
 * one Sample at a time, so memory stays near the size of the encoded
 * profile plus a compact table of the distinct stacks. Several profiles
 * with the same sample types add up into one reader.
 *
 * Frames are function names, root first; a Location with several Lines
 * (inlined calls) gives one frame per Line, innermost last. A location
 * with no function prints as "module+0xOFFSET" (mapped), "0xADDRESS", or
 * "[unknown]" when it has neither (pprof's own reports say "<unknown>").
 * ';' in a name becomes ':' and a newline or carriage return a space, so
 * every name is a valid folded frame.
 */
#ifndef FOLD_FORMATS_PPROF_H
#define FOLD_FORMATS_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/output.h"
#include "libfold/stacks.h"
#include "formats/format.h"

/* Default cap on a profile's decompressed size and decoding memory. */
#define PPROF_MAX_SIZE ((uint64_t)2 << 30)

struct pprof_readopt {
	/* sample type name or decimal index; NULL: the profile's
	   default_sample_type, else the last type (as pprof does) */
	const char *sample_index;
	int lines;		/* append ":LINE" to each frame */
	int filenames;		/* append " FILE" to each frame */
	/* label keys whose "KEY=VALUE" frames go at the root (first key
	   outermost) or at the leaf (last key innermost) */
	const char *const *tag_root;
	size_t ntag_root;
	const char *const *tag_leaf;
	size_t ntag_leaf;
	/* "KEY=REGEX" (pcre2): keep samples with a label KEY whose value
	   matches every focus, drop those where any ignore matches */
	const char *const *tag_focus;
	size_t ntag_focus;
	const char *const *tag_ignore;
	size_t ntag_ignore;
	/* cap on a profile's decompressed size, on the memory its decoded
	   tables take and on the stack table (0: PPROF_MAX_SIZE) */
	uint64_t max_size;
	int list;		/* only total the sample types (pprof_list) */
	/* what a sample with a negative value (a delta profile, as Parca
	   and go tool pprof -diff_base write) does: PPROF_NEG_* */
	int negative;
};

enum {
	/* the default: an error naming pprof2folded --differential (a
	   stack's one count cannot hold a negative value, and stackcollapse
	   adds pprof stacks to those of other formats) */
	PPROF_NEG_FAIL,
	PPROF_NEG_SKIP,	/* a warning in diag, and skipped */
	/* kept: pprof_write_folded writes the differential */
	PPROF_NEG_KEEP
};

#define PPROF_READOPT_INIT { 0 }

struct pprof_reader;

/*
 * The format's descriptor (its options a struct pprof_readopt): each
 * profile read as pprof_read does, by a reader of its own, its stacks
 * added to the run's only when it was read whole; a profile whose sample
 * types differ from the first one's fails. With list, the output is the
 * sample types and their totals (pprof_list of every profile); with
 * PPROF_NEG_KEEP, each stack's net value over every profile, as
 * pprof_write_folded writes it.
 */
extern const struct format pprof_format;
extern const struct format_id pprof_id;

/*
 * A reader with the given options (opt is copied; the strings it points
 * to must outlive the reader). NULL with a message when an option is
 * invalid ("--tag-focus: no '=' in ...", a regex error); the caller owns
 * the result.
 */
struct pprof_reader *pprof_reader_new(const struct pprof_readopt *opt);
void pprof_reader_free(struct pprof_reader *r);

struct fold_in;

/*
 * Reads the profile in (to its end; the caller closes it) and adds its
 * samples (a sample with a negative value as opt.negative says). Its
 * fields are checked as they are read (pb_profile_readall): an input
 * that is no pprof profile fails at its first bad field, not at the cap.
 * Returns 0, or -1 with a message naming the file on any error (a read
 * error, corrupt gzip or protobuf, an index or id out of range, sample
 * types that differ from the first profile's, overflow, the size cap);
 * the reader must then not be written.
 */
int pprof_read(struct pprof_reader *r, struct fold_in *in,
    struct fold_diag *diag);

/*
 * Writes the folded stacks of every profile read, sorted in byte order
 * (as fold_write does), with the selected sample values: "STACK COUNT",
 * or with PPROF_NEG_KEEP the differential "STACK BEFORE AFTER" that
 * folddiff writes and flamegraph-svg draws: each stack's net value v
 * (the exact sum of its samples) as "0 v" when v >= 0, "-v 0" when
 * v < 0, so that the sum of AFTER less that of BEFORE is the total. Returns 0, or -1 with a message when
 * nothing was read.
 */
int pprof_write_folded(struct pprof_reader *r, struct fold_out *out);

/*
 * Writes one line per sample type: "TYPE/UNIT TOTAL", the selected one
 * followed by " (selected)". Totals are exact sums of every sample kept
 * by the tag filters. Returns 0, or -1 with a message when nothing was
 * read.
 */
int pprof_list(struct pprof_reader *r, struct fold_out *out);

struct pprof_writeopt {
	const char *type, *unit;	/* sample type ("samples", "count") */
	/* period type; NULL type: none written unless period is set,
	   then the sample type */
	const char *period_type, *period_unit;
	int64_t period;
};

#define PPROF_WRITEOPT_INIT { .type = "samples", .unit = "count" }

/*
 * Writes st as a gzipped pprof profile: one Function and one Location
 * per distinct frame, numbered in the byte order of the stacks (st is
 * sorted), strings stored once. Every count must be an integer up to
 * 2^63-1: else -1 with a message naming the stack, and nothing is
 * written. Write errors are left in out (fold_out_close reports them).
 */
int pprof_write(struct fold_out *out, struct fold_stacks *st,
    const struct pprof_writeopt *opt);

#endif
