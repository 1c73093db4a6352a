/*
 * What every command shares: its name in messages, the exit statuses, the
 * out-of-memory handler, counted warnings and the checked close of
 * standard output.
 */
#ifndef CMD_UTIL_H
#define CMD_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "libfold/diag.h"
#include "libfold/output.h"

enum { EXIT_OK = 0, EXIT_ERR = 1, EXIT_USAGE = 2 };

extern const char *progname;

/*
 * The status of the failures cmd_init's handlers end a command with
 * (out of memory, standard output unwritable at exit): EXIT_ERR unless
 * the command sets another after cmd_init (folddiff's 1 means the
 * profiles differ, as diff(1)'s: its trouble is 2).
 */
extern int cmd_failure;

/*
 * Sets progname from argv[0], opens descriptors 0-2 if they are closed
 * (on /dev/null, so that using them fails), installs the out-of-memory
 * handler, ignores SIGPIPE (a closed pipe is seen as EPIPE: cmd_close
 * then ends the command by SIGPIPE, silently, as cat does) and checks at
 * exit that what stdio holds for standard output (--help) was written.
 */
void cmd_init(const char *argv0);

/* "progname: message" on stderr. */
void cmd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cmd_warn("%s", msg), as a fold_say_fn: arg is not used. */
void cmd_say(void *arg, const char *msg);

/* cmd_warn, then exit(status). */
noreturn void cmd_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A diag that prints its first warnings as "progname: warning: msg". */
void cmd_diag_init(struct fold_diag *d, int strict);

/*
 * Prints "progname: N bad lines skipped" when there were warnings (what
 * is counted is named by one and many: "line", "lines"). Returns the
 * count.
 */
unsigned long long cmd_diag_summary(const struct fold_diag *d,
    const char *one, const char *many);

struct fold_in;
struct cmd_common;

/*
 * Reads each of files[0..n) in turn (standard input when n is 0) through
 * read(reader, in, diag), which returns 0, -1 on a failure it left in
 * fold_err() (reported here, the next file is read), or -2 on one that
 * ends the whole run (reported here too). A file that cannot be opened or
 * closed is reported and the others are still read (as rev(1) does).
 * Returns EXIT_OK, or EXIT_ERR when any file failed; *stopped is set on -2.
 */
int cmd_each_input(char **files, int n,
    int (*read)(void *reader, struct fold_in *in, struct fold_diag *diag),
    void *reader, struct fold_diag *diag, int *stopped);

/*
 * cmd_each_input over files[0..n) and then, when list is set, the files
 * it names (cmd_files_from, NUL-separated when nul is set). A list that
 * names no file reads nothing, not standard input: that is reported
 * ("LIST: no file named"), EXIT_ERR, with *stopped set.
 */
int cmd_each_listed(char **files, int n, const char *list, int nul,
    int (*read)(void *reader, struct fold_in *in, struct fold_diag *diag),
    void *reader, struct fold_diag *diag, int *stopped);

/*
 * An input read in two steps: prepare(reader, w, in) reads in on its
 * own, on any thread, and returns what it found, or NULL with a message
 * in fold_err() when in failed; commit(reader, w, prepared, in, diag),
 * on any thread, one at a time, in the order of the inputs, adds it and
 * returns as cmd_each_input's read does (0, -1, -2), taking
 * prepared; in is still open then (closed after), for a commit that
 * reads the rest of it itself. drop frees a prepared input that is not
 * committed. w is what worker(reader) made for the thread that prepared
 * the input, made before the threads start and freed by worker_free once
 * every input is committed: state a thread keeps from one input to the
 * next, which its commits may use too. A commit may run on another
 * thread while w's own prepares the next input: the two use different
 * parts of w. w is NULL when worker is, and with one job (each input is
 * committed as soon as it is prepared).
 */
struct cmd_twostep {
	void *(*prepare)(void *reader, void *w, struct fold_in *in);
	int (*commit)(void *reader, void *w, void *prepared,
	    struct fold_in *in, struct fold_diag *diag);
	void (*drop)(void *reader, void *prepared);
	void *(*worker)(void *reader);
	void (*worker_free)(void *reader, void *w);
};

/*
 * The threads of a run that shares its work out itself (foldmerge):
 * cc->jobs; for a run that asks for none, FOLD_TEST_JOBS (the tests) or
 * FOLD_JOBS_AUTO, for the library to count where threads pay, but one
 * when progress is shown (one thread draws it). At most FOLD_JOBS_MAX.
 */
unsigned cmd_jobs(const struct cmd_common *cc);

/*
 * The threads for what a run does with all it read (sorting, compressing
 * the output): cc->jobs, FOLD_TEST_JOBS or one per processor, as the
 * split reading's (split_jobs); progress is drawn only while reading.
 */
unsigned cmd_sort_jobs(const struct cmd_common *cc);

/*
 * cmd_each_listed, the inputs prepared by up to cc->jobs threads at once
 * (0: one per processor it may run on; never more than the inputs), at
 * most twice that ahead of the commits, so that memory is bounded by the
 * inputs in flight. The output and every
 * message, in their order, are those of one thread whatever jobs is:
 * messages are held with their input and given at its commit. Progress
 * is shown only with one job: the default when it is to be shown.
 */
int cmd_each_listed_jobs(char **files, int n, const struct cmd_common *cc,
    const struct cmd_twostep *ts, void *reader, struct fold_diag *diag,
    int *stopped);

/*
 * How a large file is read in parts (formats/split.h): on cc->jobs
 * threads, one per processor for the default (fold_processors), counted
 * only for an input large enough. The tests cut small inputs up with
 * FOLD_TEST_PIECE (bytes a piece) and FOLD_TEST_JOBS (the jobs of a run
 * that asks for none).
 */
struct split_opt;
void cmd_split_opt(const struct cmd_common *cc, struct split_opt *o);

/*
 * Reads the folded profiles files[0..n) and those cc->list names
 * (cmd_each_listed), each in parts on cc->jobs threads when it is a large
 * file (formats/folded.h), into a new one-column stack table *st with a frames
 * table of its own, each bad line counted in diag; then prints the count
 * of bad lines. Returns EXIT_OK, or EXIT_ERR when an input failed (the
 * others are read). When an input stopped the run (a count overflow,
 * counts of another unit), *st is NULL: what was added is no answer to
 * write. cmd_folded_free frees *st and its frames.
 */
struct fold_stacks;
int cmd_read_folded(char **files, int n, const struct cmd_common *cc,
    struct fold_diag *diag, struct fold_stacks **st);
void cmd_folded_free(struct fold_stacks *st);

/*
 * The status of a run whose inputs, all read, gave n stacks (counting each
 * line of one, fold_stacks_adds): EXIT_OK, or when n is 0 (every input
 * empty, or of blank or bad lines only) EXIT_ERR with "no stacks found in
 * the input", as a converter fails on an input without stacks. The
 * command still writes its empty profile or table, so that a pipeline
 * sees well-formed output; stacks a filter removed do not make it empty.
 */
int cmd_stacks_found(uint64_t n);

/*
 * Progress on standard error while cmd_each_input reads: the bytes read
 * of the file's size when it is known, the rate and the time elapsed,
 * redrawn a few times a second once a run takes half a second, erased
 * when the file is done. By default only when standard error is a
 * terminal; --progress asks for it anyway, --no-progress never. A
 * command lists both options (CMD_OPT_PROGRESS, CMD_OPT_NO_PROGRESS) and
 * hands them to cmd_progress_opt.
 */
enum { CMD_OPT_PROGRESS = 0x1000, CMD_OPT_NO_PROGRESS };
void cmd_progress_opt(int opt);

/*
 * Shows the progress of reading in (as cmd_each_input does for its
 * inputs), for commands that open inputs through the library
 * (fold_merge_opt's opened); arg is not used.
 */
void cmd_progress_attach(void *arg, struct fold_in *in);

/*
 * The inputs of a command that takes many: files[0..n) (its operands),
 * then the names listed in the file list ("-": standard input), one per
 * line or, with nul, each ended by a NUL byte (find -print0); empty lines
 * are skipped, and a gzipped list is read too. Sets *names to the whole
 * list, freed with one free(), and returns its length. A list that cannot
 * be read, is larger than 1 GiB, has a name of PATH_MAX bytes or more, an
 * empty NUL-ended name (as du --files0-from) or a NUL in a line, or names
 * "-" while it is standard input itself, ends the command with status 1
 * (2 for "-" among files); one naming no file gives none, not standard
 * input. For --files-from: a fleet does not fit in argv.
 */
int cmd_files_from(char **files, int n, const char *list, int nul,
    char ***names);

/*
 * The whole main of a converter, in cmd/convert.c: of format f, or with
 * cmd_convert_any of stackcollapse, over the formats fmts[0..n) (each
 * input's detected unless --format names one). Parses argv by the
 * options of the format(s) and those every converter takes (--strict,
 * --files-from, -0, --progress, --no-progress, --help), reads every
 * input through formats/collapse.h and writes the result. Returns the
 * exit status. A tool of one format links that format's reader alone.
 */
struct format;
int cmd_convert(int argc, char *argv[], const struct format *f);
int cmd_convert_any(int argc, char *argv[], const struct format *const *fmts,
    size_t n);

/* Standard output as a fold_out. */
struct fold_out *cmd_stdout(void);

/*
 * Closes out; on failure prints the message. Returns status, or EXIT_ERR
 * if the close failed.
 */
int cmd_close(struct fold_out *out, int status);

/*
 * Parses a non-negative finite decimal option value (no exponent) or dies
 * with a usage message naming opt.
 */
double cmd_number(const char *opt, const char *s);

/* Parses a non-negative integer option value or dies with usage. */
unsigned long long cmd_uint(const char *opt, const char *s);

/*
 * Parses BYTES, or a number with a K, M, G or T suffix (powers of 1024),
 * greater than 0, or dies with a usage message naming opt.
 */
unsigned long long cmd_size(const char *opt, const char *s);

#endif
