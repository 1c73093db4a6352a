/*
 * speedscope JSON files to folded stacks, and folded stacks to them.
 *
 * speedscope's own format (https://www.speedscope.app/file-format-
 * schema.json) is written by py-spy, rbspy, pyinstrument and
 * speedscope itself:
 *
 *	{"$schema":"https://www.speedscope.app/file-format-schema.json",
 *	 "shared":{"frames":[{"name":"main","file":"a.py","line":3},...]},
 *	 "profiles":[
 *	  {"type":"sampled","name":"MainThread","unit":"seconds",
 *	   "startValue":0,"endValue":2.5,
 *	   "samples":[[0,1,2],[0,1]],"weights":[0.01,0.01]},
 *	  {"type":"evented","name":"x","unit":"milliseconds",
 *	   "startValue":0,"endValue":14,
 *	   "events":[{"type":"O","frame":0,"at":0},
 *	             {"type":"C","frame":0,"at":14}]}]}
 *
 * A sampled profile lists stacks as frame indices, root first, each with
 * its weight. An evented profile opens and closes frames at values: the
 * stack open between two events is credited the difference, so each
 * stack gets the time it was the one running, as speedscope's flame
 * graph shows it. Every profile of the file is read unless --profile
 * names some; with --profile-root each stack is put under its profile's
 * name (py-spy and rbspy write a profile per thread).
 *
 * Counts: times, in whatever unit the file gives them, are converted to
 * whole nanoseconds, so that profiles and files of different time units
 * add up; "bytes" stay bytes; "none" counts are samples (a weight with a
 * fraction stays a fraction, as folded counts may be). Numbers are read
 * exactly from their decimal text (formats/json.h json_fixed), not as
 * binary doubles, and a stack's total is rounded to the nanosecond once.
 *
 * The key order of the file is free: frames may come after the profiles
 * that name them (py-spy writes them last), and weights before samples.
 * Stacks are therefore kept as frame indices until the end of the input,
 * each unique stack once: memory follows the unique stacks (and, for a
 * sampled profile, 4 bytes a sample when its weights come after its
 * samples, 16 a weight when they come first), not the file.
 */
#ifndef FORMATS_SPEEDSCOPE_H
#define FORMATS_SPEEDSCOPE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"

/* Default cap on an input's size (decompressed), as for .cpuprofile. */
#define SPEEDSCOPE_MAX_SIZE ((uint64_t)2 << 30)

struct speedscope_opt {
	int lines;		/* frames "name file:line" where a file is known */
	int profile_root;	/* each stack under its profile's name */
	const char **profiles;	/* --profile NAME: read only these */
	size_t nprofiles;
	uint64_t max_size;	/* cap on an input (0: SPEEDSCOPE_MAX_SIZE) */
};

#define SPEEDSCOPE_OPT_INIT { 0 }

/* The reader (its options a struct speedscope_opt). */
extern const struct format speedscope_format;
extern const struct format_id speedscope_id;

/*
 * 2 when head[0..n) is a JSON object naming speedscope's schema, 1 when
 * it has "profiles" and "shared" keys, else 0.
 */
int speedscope_detect(const char *head, size_t n, int eof);

/*
 * Writes st as a speedscope file of one sampled profile called name: a
 * frame for each distinct name, a sample for each stack (stacks in byte
 * order, frames numbered as they first appear), its count as its weight,
 * the unit speedscope's where st's unit is one of them (nanoseconds ...
 * seconds, bytes), else "none". Names that are not valid UTF-8 have
 * U+FFFD in place of each bad byte, as JSON holds text. Returns 0, or -1
 * with a message when the total overflows.
 */
int speedscope_write(struct fold_out *out, struct fold_stacks *st,
    const char *name);

#endif
