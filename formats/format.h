/*
 * A format, described once: its name, its options, how an input is told
 * to be of it, and its reader. Each format module exports one constant
 * struct format; formats/collapse.h lists them, and every converter
 * (a format's own tool, and stackcollapse for all of them) parses its
 * command line from the options tables and runs the reader through the
 * same path, so that `stackcollapse-X ARGS` and `stackcollapse --format X
 * ARGS` behave identically.
 *
 * The option table type is the commands' too: every tool describes its
 * options with it, and --help is printed from the table that parses
 * (as git's parse-options does).
 */
#ifndef FOLD_FORMATS_FORMAT_H
#define FOLD_FORMATS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "libfold/diag.h"
#include "libfold/input.h"
#include "libfold/output.h"
#include "libfold/stacks.h"

/*
 * What an option does with its value. Each option's value is at offset
 * off in an options struct (a format's, or a command's):
 *   FOLD_OPT_FLAG   no value; the int at off is set to value. Flags with
 *                   the same off and different values are alternatives
 *                   (--bytes | --ticks): giving two is a usage error.
 *   FOLD_OPT_STRING the value, a const char * at off (the string is the
 *                   argument's, which outlives the run). It must not be
 *                   empty nor hold a byte of reject ("--event: not an
 *                   event name: 'x'", what naming it).
 *   FOLD_OPT_TEXT   the value as it is, empty or not (a title), a const
 *                   char * at off.
 *   FOLD_OPT_SIZE   BYTES, or a number with a K, M, G or T suffix
 *                   (powers of 1024), greater than 0, as a uint64_t.
 *   FOLD_OPT_LIST   each use appends its value to a const char ** array
 *                   at off, counted by the size_t at countoff.
 *   FOLD_OPT_KEYS   as LIST, the value split at commas (at least one).
 *   FOLD_OPT_UINT   a non-negative decimal integer, as an unsigned
 *                   long long.
 *   FOLD_OPT_NUMBER a non-negative finite decimal number (no exponent),
 *                   as a double.
 *   FOLD_OPT_CALL   call(opts, value, more), value NULL when arg is NULL,
 *                   more the argument after the value when args is 2
 *                   (--replace RE REPL), else NULL; returns 0, or -1 with
 *                   a message for a bad value. Calls are made in command
 *                   line order, so a call can record steps in order.
 * A UINT or NUMBER value below min, or equal to it when above is set,
 * is a usage error ("--width: must be above 20").
 */
enum { FOLD_OPT_FLAG, FOLD_OPT_STRING, FOLD_OPT_TEXT, FOLD_OPT_SIZE,
	FOLD_OPT_LIST, FOLD_OPT_KEYS, FOLD_OPT_UINT, FOLD_OPT_NUMBER,
	FOLD_OPT_CALL };

struct fold_option {
	const char *name;	/* the long name; NULL ends a table */
	int shortname;		/* '0', or 0 for none */
	const char *arg;	/* in --help: "NAME"; NULL: takes no value */
	const char *help;	/* one line, for --help */
	int kind;		/* FOLD_OPT_* */
	size_t off;
	int value;		/* FLAG */
	const char *reject;	/* STRING */
	const char *what;	/* STRING: "an event name" */
	size_t countoff;	/* LIST, KEYS */
	double min;		/* UINT, NUMBER */
	int above;		/* UINT, NUMBER: min itself is refused */
	int args;		/* CALL: 2 takes the next argument too */
	int (*call)(void *opts, const char *value, const char *more);
};

/*
 * What a format's detect answers: how sure it is that an input is its
 * own, from the input's first bytes.
 */
enum { FOLD_DETECT_NO = 0, FOLD_DETECT_MAYBE = 1, FOLD_DETECT_SURE = 2 };

/*
 * What kind of bytes a format is: lines of text, each understood or
 * counted as a bad line (the checks of collapse_check_begin and _end
 * apply); a text document read whole by a parser (JSON, XML), whose
 * parser says what is wrong; or binary data.
 */
enum { FOLD_LINES, FOLD_DOCUMENT, FOLD_BINARY };

/*
 * What tells a format and names it, apart from its reader: a tool that
 * reads one format says which other an input looks like without linking
 * the other readers (and the libraries they need: libxml2 for SVG).
 */
struct format_id {
	const char *name;	/* as --format takes it: "perf" */
	const char *tool;	/* the converter of this format alone */
	const char *what;	/* one line, for --list-formats */
	const char *input;	/* in messages: "perf script output" */
	/*
	 * head[0..n) is the start of the input (decompressed), eof 1 when
	 * that is all of it: FOLD_DETECT_NO, _MAYBE or _SURE.
	 */
	int (*detect)(const char *head, size_t n, int eof);
	/*
	 * NULL, or 1 when head[0..n) begins a binary form that the reader
	 * of a text format reads too (a JFR recording for jfr): such an
	 * input is not refused as binary data, and is the format's
	 * whatever else claims it.
	 */
	int (*binary)(const char *head, size_t n);
};

/*
 * A format. Its reader is used as: open once per run, read for each
 * input, finish after the last, output when the run writes, close. r is
 * what open returned.
 */
struct format {
	const struct format_id *id;
	int kind;		/* FOLD_LINES ... */
	/* what a bad part of an input is called in the count of them */
	const char *one, *many;	/* "line", "lines" */

	/* The options: the table, and the struct it sets, as it starts. */
	const struct fold_option *options;
	size_t optsize;
	const void *defaults;

	/*
	 * A reader with the options opt (copied; the strings they point to
	 * outlive it), adding the stacks of each input to st, or keeping
	 * them apart until finish. NULL with a message when an option is
	 * invalid.
	 */
	void *(*open)(const void *opt, struct fold_stacks *st);
	/*
	 * Reads one whole input. Returns 0; -1 with a message when the
	 * input failed (the run goes on); -2 with a message when the whole
	 * run must stop (a strict warning, a count overflow).
	 */
	int (*read)(void *r, struct fold_in *in, struct fold_diag *diag);
	/*
	 * NULL, or the unit of the counts of the input just read (a unit
	 * name, see libfold/unit.h); samples when NULL or when it returns
	 * NULL.
	 */
	const char *(*unit)(const void *r);
	/* NULL, or what is said of an input once it is read (its name). */
	void (*input_done)(void *r, const char *name, fold_say_fn *say,
	    void *arg);
	/*
	 * NULL, or the records (samples, entries, events of any type)
	 * recognised so far, kept or not, over every input; when NULL, the
	 * stacks added to st tell.
	 */
	uint64_t (*records)(const void *r);
	/*
	 * After the last input (ok 0 when an input failed): adds to st
	 * what was kept apart and says the end-of-run messages through
	 * say(arg, msg). Returns 0, or -1 when the run must fail (an option
	 * asked for what no input had).
	 */
	int (*finish)(void *r, int ok, fold_say_fn *say, void *arg);
	/*
	 * NULL, or what the run writes instead of st's stacks: returns 0
	 * when it is st's stacks after all, 1 when it wrote its own output
	 * to out (a listing, the two columns of a differential profile),
	 * -1 with a message.
	 */
	int (*output)(void *r, struct fold_out *out);
	void (*close)(void *r);

	/*
	 * Reading an input in parts, on several threads (formats/split.h);
	 * NULL for a format whose inputs are read as one. Its read must
	 * take the number of the line before each run of lines from
	 * fold_in_lineno (it may jump between two runs), and leave there
	 * the number of the last line it read.
	 *
	 * split: the offset in buf[0..n) of the first place a part may
	 * begin, n when there is none: the start of a line after one that
	 * surely ends a record, so that a new reader from part, reading on
	 * from there, reads what r would read.
	 *
	 * part: a new reader of parts of the input r is reading, adding to
	 * st (a table of its own), with r's options and what r decided from
	 * what it read (perf's kept event). Parts keep for join what only
	 * the whole tells, in the order of fold_in_origin. NULL: no parts.
	 *
	 * join: adds to r what the parts p[0..n) found, but their stacks
	 * (merged by the caller), as if r had read their lines itself: 0;
	 * or 1, r unchanged, when they met what only r can decide (r then
	 * reads their lines after all).
	 */
	size_t (*split)(const char *buf, size_t n);
	void *(*part)(void *r, struct fold_stacks *st);
	int (*join)(void *r, void *const *p, size_t n);
	/*
	 * 1 when join also takes, as its one part (n 1), a reader opened
	 * anew with r's options that read one whole input from its start,
	 * as r would read it next: then the inputs of a run of many
	 * (--files-from a fleet) are read on threads, each by a reader and
	 * into a table of its own (its frames in a table its thread keeps
	 * from one input to the next), and taken in their order
	 * (formats/collapse.c).
	 */
	int whole;
	/*
	 * rested: r, such a reader of one whole input, reads no more: it
	 * waits for its join, which needs none of what reading does (perf's
	 * cache of frame lines, kept for the next reader on the thread).
	 * NULL: nothing to let go.
	 */
	void (*rested)(void *r);
	/*
	 * 1: a large input is read in parts by default (jobs 0); 0: only
	 * when jobs are asked for, where parts gain too little for the
	 * processor time they cost.
	 */
	int split_default;

	/*
	 * Reading many inputs at once, each whole on a thread of its own
	 * (--files-from a fleet); NULL for a format whose inputs are read
	 * one after another.
	 *
	 * worker: a reader for one thread, with r's options (read from r
	 * while r reads: nothing else of r may be), freed with close. It
	 * keeps what it likes from one input to the next.
	 *
	 * prepare: reads in whole on w's thread, as r would if it had read
	 * nothing before, and returns what it found (never NULL): what
	 * commit needs to add it to r, or to read it itself when r decided
	 * otherwise (the bytes).
	 *
	 * commit: on r's thread, the inputs in their order, each with the
	 * worker that prepared it: adds to r what prepare found, as if r had
	 * read the input itself, and frees it; returns as read, with the
	 * same warnings and messages. drop frees what is not committed.
	 */
	void *(*worker)(void *r);
	void *(*prepare)(void *w, struct fold_in *in);
	int (*commit)(void *r, void *w, void *prepared,
	    struct fold_diag *diag);
	void (*drop)(void *prepared);
};

#endif
