/*
 * Command lines parsed from tables of struct fold_option (formats/
 * format.h), and --help printed from the same tables, so that what a
 * tool accepts and what it says it accepts cannot drift apart (as git's
 * parse-options does).
 */
#ifndef CMD_OPT_H
#define CMD_OPT_H

#include <stddef.h>

#include "formats/format.h"

/* A table of options and the struct its offsets are into. */
struct cmd_optset {
	const char *title;	/* --help's heading of the table, or NULL */
	const struct fold_option *options;
	void *base;
};

/*
 * Parses the options of argv by the tables of sets[0..n). An option
 * given sets its value in every table that has it (stackcollapse
 * --kernel, for perf and bcc alike); every table's values are checked as
 * its entry says. -h and --help print the usage (the synopsis, with
 * operands, then each option and its help line, and the man page to
 * read) on standard output and exit 0; an unknown option, a missing or
 * bad value or two alternatives print a message and the synopsis on
 * standard error and exit 2. Returns the index of the first operand.
 */
int cmd_parse(int argc, char *argv[], const struct cmd_optset *sets,
    size_t n, const char *operands);

/*
 * As cmd_parse, for a command whose operands mean something where they
 * stand among the options (foldmerge --root R file): operand(arg, op)
 * is called for each operand in command line order, between the calls
 * of the options around it. Returns argc.
 */
int cmd_parse_each(int argc, char *argv[], const struct cmd_optset *sets,
    size_t n, const char *operands, void (*operand)(void *arg, char *op),
    void *arg);

/*
 * The options that commands share, each table on a struct cmd_common
 * (cmd_opt_progress sets nothing in it: progress is the process's):
 *   cmd_opt_progress  --progress, --no-progress (cmd_progress_opt)
 *   cmd_opt_strict    --strict: the first bad line is an error
 *   cmd_opt_files     --files-from LIST, -0 | --null
 *   cmd_opt_unit      --unit NAME: the unit of the sum, whatever the
 *                     inputs count (fold_stacks_force_unit)
 *   cmd_opt_jobs      -j N | --jobs N: inputs read on N threads
 *                     (0, the default: cmd_each_listed_jobs decides)
 */
struct cmd_common {
	int strict;
	const char *list;	/* --files-from */
	int nul;
	const char *unit;	/* --unit */
	unsigned long long jobs;	/* --jobs */
};
extern const struct fold_option cmd_opt_progress[];
extern const struct fold_option cmd_opt_strict[];
extern const struct fold_option cmd_opt_files[];
extern const struct fold_option cmd_opt_unit[];
extern const struct fold_option cmd_opt_jobs[];

/* Frees the arrays that FOLD_OPT_LIST and _KEYS options made. */
void cmd_optset_release(const struct cmd_optset *sets, size_t n);

#endif
