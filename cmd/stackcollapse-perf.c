/*
 * stackcollapse-perf: turn `perf script` output into folded stacks, one
 * line per unique stack with its total period (or sample count).
 *
 *	perf record -F 99 -a -g -- sleep 10
 *	perf script | stackcollapse-perf | flamegraph-svg > cpu.svg
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/collapse.h"
#include "formats/perf.h"
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--addrs] [--all] [--context] [--event-filter EVENT]"
	    " [--inline]\n"
	    "                          [--jit] [--kernel] [--list-events] "
	    "[--pid] [--samples]\n"
	    "                          [--srcline] [--strict] [--tid] "
	    "[--progress | --no-progress]\n"
	    "                          [file ...]\n", progname);
}

/* The first bad line is kept and shown at the end, with the count. */
static char firstbad[1024];

static void
keepfirst(void *arg, const char *msg)
{
	if (!firstbad[0])
		snprintf(firstbad, sizeof firstbad, "%s", msg);
}

/* The reader, with the checks every converter makes of its inputs. */
struct run {
	struct perf_reader *r;
	const struct collapse_format *f;
	struct collapse_check check;
};

static int
readone(void *arg, struct fold_in *in, struct fold_diag *diag)
{
	struct run *run = arg;
	uint64_t before = perf_samples(run->r);
	int rc;

	if (collapse_check_begin(&run->check, run->f, in, diag) < 0)
		return -1;
	rc = perf_read(run->r, in, diag);
	perf_input_summary(run->r, fold_in_name(in), cmd_say, NULL);
	return collapse_check_end(&run->check, run->f, in, diag,
	    perf_samples(run->r) - before, rc);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "addrs", no_argument, NULL, 'a' },
		{ "all", no_argument, NULL, 'A' },
		{ "context", no_argument, NULL, 'c' },
		{ "event-filter", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "inline", no_argument, NULL, 'i' },
		{ "jit", no_argument, NULL, 'j' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "list-events", no_argument, NULL, 'l' },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "pid", no_argument, NULL, 'p' },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "samples", no_argument, NULL, 's' },
		{ "srcline", no_argument, NULL, 'S' },
		{ "strict", no_argument, NULL, 'X' },
		{ "tid", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	struct perf_opt opt = PERF_OPT_INIT;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct perf_reader *r;
	struct run run = { NULL, NULL, COLLAPSE_CHECK_INIT };
	struct fold_diag diag;
	struct fold_out *out;
	int c, strict = 0, status = EXIT_OK, stopped;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			opt.addrs = 1;
			break;
		case 'A':
			opt.kernel = opt.jit = 1;
			break;
		case 'c':
			opt.context = 1;
			break;
		case 'e':
			if (!*optarg || strpbrk(optarg, " \t\n"))
				cmd_die(EXIT_USAGE, "--event-filter: not an "
				    "event name: '%s'", optarg);
			opt.event = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'i':
			opt.inlined = 1;
			break;
		case 'j':
			opt.jit = 1;
			break;
		case 'k':
			opt.kernel = 1;
			break;
		case 'l':
			opt.list = 1;
			break;
		case 'p':
			opt.pid = 1;
			break;
		case 's':
			opt.samples = 1;
			break;
		case 'S':
			opt.srcline = 1;
			break;
		case 't':
			opt.tid = 1;
			break;
		case 'X':
			strict = 1;
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}

	frames = fold_intern_new();
	st = fold_stacks_new(frames, 1);
	r = perf_reader_new(&opt, st);
	cmd_diag_init(&diag, strict);
	diag.limit = 1;
	diag.report = keepfirst;
	out = cmd_stdout();
	run.r = r;
	run.f = collapse_find("perf");
	status = cmd_each_input(argv + optind, argc - optind, readone, &run,
	    &diag, &stopped);
	if (stopped)
		goto done;
	if (diag.count) {
		cmd_warn("%s", firstbad);
		if (diag.count > 1)
			cmd_warn("%llu bad lines skipped (the first shown)",
			    (unsigned long long)diag.count);
	}
	if (collapse_check_finish(&run.check, cmd_say, NULL) < 0)
		status = EXIT_ERR;
	if (opt.list) {
		const struct perf_event *ev;
		size_t n, k;
		ev = perf_events(r, &n);
		for (k = 0; k < n; k++)
			fold_out_printf(out, "%s %llu\n",
			    ev[k].name[0] ? ev[k].name : "-",
			    (unsigned long long)ev[k].samples);
	} else {
		if (perf_summary(r, &opt, cmd_say, NULL) < 0)
			status = EXIT_ERR;
		/* samples there were, but all dropped (bad periods) */
		else if (status == EXIT_OK && run.check.found &&
		    fold_stacks_len(st) == 0) {
			cmd_warn("no stacks found");
			status = EXIT_ERR;
		}
		fold_write(out, st);
	}
done:
	collapse_check_release(&run.check);
	perf_reader_free(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
	return cmd_close(out, status);
}
