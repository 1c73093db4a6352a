/*
 * The converters' common main (cmd_converter, cmd_collapse), apart from
 * util.c: it names every reader of formats/collapse.h, so a tool that
 * links it links them all and the libraries they need (libxml2 with
 * ICU, jansson), which the other tools, linked with --as-needed, leave out.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "formats/collapse.h"
#include "cmd/util.h"

static int
collapse_one(void *c, struct fold_in *in, struct fold_diag *diag)
{
	return collapse_read(c, in, diag);
}

int
cmd_collapse(const struct collapse_format *f, const struct collapse_opt *opt,
    int strict, char **files, int n, const char *one, const char *many)
{
	struct fold_intern *frames = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(frames, 1);
	struct collapse *col;
	struct fold_diag diag;
	struct fold_out *out;
	int status, stopped;

	if (!(col = collapse_new(opt, f, st, cmd_say, NULL)))
		cmd_die(EXIT_USAGE, "%s", fold_err());
	cmd_diag_init(&diag, strict);
	out = cmd_stdout();
	status = cmd_each_input(files, n, collapse_one, col, &diag, &stopped);
	if (!stopped) {
		fold_write(out, st);
		if (collapse_finish(col, status == EXIT_OK) < 0)
			status = EXIT_ERR;
	}
	cmd_diag_summary(&diag, one, many);
	collapse_free(col);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}

/* Two flags that set the same thing, of which one may be given. */
static int
alternatives(const struct cmd_flag *a, const struct cmd_flag *b)
{
	return a->set && a->set == b->set;
}

static void
converter_usage(FILE *f, const struct cmd_flag *flags)
{
	size_t i;

	fprintf(f, "usage: %s", progname);
	for (i = 0; flags[i].name; i++) {
		int first = i == 0 || !alternatives(&flags[i - 1], &flags[i]);
		int last = !flags[i + 1].name ||
		    !alternatives(&flags[i + 1], &flags[i]);
		fprintf(f, "%s--%s%s%s", first ? " [" : " | ", flags[i].name,
		    flags[i].bytes ? " BYTES" : "", last ? "]" : "");
	}
	fprintf(f, " [--strict]\n       %*s [--progress | --no-progress] "
	    "[file ...]\n", (int)strlen(progname), "");
}

int
cmd_converter(int argc, char *argv[], const char *format,
    struct collapse_opt *opt, const struct cmd_flag *flags,
    const char *one, const char *many)
{
	enum { O_STRICT = 256, O_FLAG };
	struct option *longopts;
	size_t n, i, k;
	int c, strict = 0, status, *given;

	cmd_init(argv[0]);
	for (n = 0; flags[n].name; n++)
		;
	longopts = fold_calloc(n + 5, sizeof *longopts);
	given = fold_calloc(n + 1, sizeof *given);
	for (i = 0; i < n; i++)
		longopts[i] = (struct option){ flags[i].name,
		    flags[i].bytes ? required_argument : no_argument, NULL,
		    O_FLAG + (int)i };
	longopts[n] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n + 1] = (struct option){ "strict", no_argument, NULL,
	    O_STRICT };
	longopts[n + 2] = (struct option){ "progress", no_argument, NULL,
	    CMD_OPT_PROGRESS };
	longopts[n + 3] = (struct option){ "no-progress", no_argument, NULL,
	    CMD_OPT_NO_PROGRESS };
	status = -1;
	while (status < 0 &&
	    (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			converter_usage(stdout, flags);
			status = EXIT_OK;
			break;
		case O_STRICT:
			strict = 1;
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		default:
			if (c < O_FLAG || (size_t)(c - O_FLAG) >= n) {
				converter_usage(stderr, flags);
				status = EXIT_USAGE;
				break;
			}
			i = c - O_FLAG;
			if (flags[i].bytes) {
				char name[64];
				snprintf(name, sizeof name, "--%s",
				    flags[i].name);
				*flags[i].bytes = cmd_size(name, optarg);
				break;
			}
			/* an alternative given before: another of its group */
			for (k = 0; k < n && status < 0; k++)
				if (given[k] && k != i &&
				    alternatives(&flags[k], &flags[i])) {
					cmd_warn("--%s cannot be used with --%s",
					    flags[k].name, flags[i].name);
					converter_usage(stderr, flags);
					status = EXIT_USAGE;
				}
			given[i] = 1;
			*flags[i].set = flags[i].value;
		}
	}
	free(longopts);
	free(given);
	if (status >= 0)
		return status;
	return cmd_collapse(collapse_find(format), opt, strict, argv + optind,
	    argc - optind, one, many);
}

