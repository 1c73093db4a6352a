/*
 * folddiff: compare two folded profiles. By default it writes the
 * differential profile of difffolded.pl (every stack with its count before
 * and after) for a differential flame graph; with --report, a table of
 * the functions whose share changed, tested for significance; with
 * --fail-if, it exits 1 when a significant change crosses a threshold.
 *
 *	folddiff before.folded after.folded | flamegraph-svg > diff.svg
 *	folddiff --report --fail-if 'self>+1pp' before.folded after.folded
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "libfold/filter.h"
#include "libfold/report.h"
#include "formats/diffreport.h"
#include "cmd/util.h"

/* diff(1)'s statuses: 1 is "a regression", so trouble is 2 */
enum { EXIT_FAIL = 1, EXIT_TROUBLE = 2 };

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [-nrs] [--alpha Q] [--fail-if EXPR] [--floor P%%] "
	    "[--format FORMAT] [--strict]\n"
	    "                [--top N] [--units-before N --units-after M] "
	    "[--weight auto|W[,W]]\n"
	    "                [--progress | --no-progress] before after\n",
	    progname);
}

static void
oom(void)
{
	static const char msg[] = ": out of memory\n";

	(void)!write(2, progname, strlen(progname));
	(void)!write(2, msg, sizeof msg - 1);
	_exit(EXIT_TROUBLE);
}

static void
hit(void *arg, const struct fold_gatehit *h)
{
	cmd_warn("regression: %s", h->line);
}

/* auto, W or W1,W2: the weight of one sample before and after. */
static void
parse_weight(const char *s, double w[2])
{
	const char *comma = strchr(s, ',');
	char *first;

	if (strcmp(s, "auto") == 0) {
		w[0] = w[1] = 0;
		return;
	}
	if (!comma) {
		w[0] = w[1] = cmd_number("--weight", s);
	} else {
		first = fold_strndup(s, comma - s);
		w[0] = cmd_number("--weight", first);
		w[1] = cmd_number("--weight", comma + 1);
		free(first);
	}
	if (w[0] == 0 || w[1] == 0)
		cmd_die(EXIT_TROUBLE, "--weight: must be above 0");
}

/* P or P%, at most 100 */
static double
percent(const char *opt, const char *s)
{
	char *t = fold_strndup(s, strlen(s));
	double v;

	if (*t && t[strlen(t) - 1] == '%')
		t[strlen(t) - 1] = '\0';
	v = cmd_number(opt, t);
	free(t);
	if (v > 100)
		cmd_die(EXIT_USAGE, "%s: above 100%%", opt);
	return v;
}

static int
fail(const char *msg)
{
	cmd_warn("%s", msg);
	return EXIT_TROUBLE;
}

int
main(int argc, char *argv[])
{
	enum { OPT_ALPHA = 256, OPT_FAIL_IF, OPT_FLOOR, OPT_FORMAT, OPT_STRICT,
	    OPT_TOP,
	    OPT_UNITS_AFTER, OPT_UNITS_BEFORE, OPT_WEIGHT };
	static const struct option longopts[] = {
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "fail-if", required_argument, NULL, OPT_FAIL_IF },
		{ "floor", required_argument, NULL, OPT_FLOOR },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "normalize", no_argument, NULL, 'n' },
		{ "report", no_argument, NULL, 'r' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "strip-hex", no_argument, NULL, 's' },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "units-after", required_argument, NULL, OPT_UNITS_AFTER },
		{ "units-before", required_argument, NULL, OPT_UNITS_BEFORE },
		{ "weight", required_argument, NULL, OPT_WEIGHT },
		{ NULL, 0, NULL, 0 }
	};
	struct fold_diffopt opt = FOLD_DIFFOPT_INIT;
	struct fold_diffwriteopt wo = FOLD_DIFFWRITEOPT_INIT;
	struct fold_diffreport *rep = NULL;
	struct fold_gate *gates;
	const char **gatetext;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	struct fold_in *in;
	size_t ngates = 0, nhit = 0;
	int c, i, nempty = 0, normalize = 0, report = 0, strip = 0, strict = 0;
	int status = EXIT_OK;

	cmd_init(argv[0]);
	fold_set_oom_handler(oom);
	gatetext = fold_reallocarray(NULL, argc, sizeof *gatetext);
	while ((c = getopt_long(argc, argv, "hnrs", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ALPHA:
			opt.alpha = cmd_number("--alpha", optarg);
			if (opt.alpha <= 0 || opt.alpha >= 1)
				cmd_die(EXIT_USAGE, "--alpha: must be between "
				    "0 and 1");
			break;
		case OPT_FAIL_IF:
			gatetext[ngates++] = optarg;
			break;
		case OPT_FLOOR:
			opt.floor = percent("--floor", optarg) / 100;
			break;
		case OPT_FORMAT:
			if (fold_format_parse(optarg, FOLD_DIFF_FORMATS,
			    &wo.format) < 0)
				cmd_die(EXIT_USAGE, "--format: %s", fold_err());
			break;
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		case 'h':
			usage(stdout);
			free(gatetext);
			return EXIT_OK;
		case 'n':
			normalize = 1;
			break;
		case 'r':
			report = 1;
			break;
		case 's':
			strip = 1;
			break;
		case OPT_STRICT:
			strict = 1;
			break;
		case OPT_TOP:
			wo.top = cmd_uint("--top", optarg);
			break;
		case OPT_UNITS_AFTER:
			opt.units[1] = cmd_number("--units-after", optarg);
			if (opt.units[1] == 0)
				cmd_die(EXIT_USAGE, "--units-after: must be "
				    "above 0");
			break;
		case OPT_UNITS_BEFORE:
			opt.units[0] = cmd_number("--units-before", optarg);
			if (opt.units[0] == 0)
				cmd_die(EXIT_USAGE, "--units-before: must be "
				    "above 0");
			break;
		case OPT_WEIGHT:
			parse_weight(optarg, opt.weight);
			break;
		default:
			usage(stderr);
			free(gatetext);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2) {
		usage(stderr);
		free(gatetext);
		return EXIT_USAGE;
	}
	if ((opt.units[0] > 0) != (opt.units[1] > 0))
		cmd_die(EXIT_USAGE, "--units-before and --units-after go "
		    "together");
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		cmd_die(EXIT_USAGE, "only one input can be standard input");
	gates = fold_reallocarray(NULL, ngates ? ngates : 1, sizeof *gates);
	for (i = 0; i < (int)ngates; i++)
		if (fold_gate_parse(gatetext[i], opt.units[0] > 0,
		    &gates[i]) < 0)
			cmd_die(EXIT_USAGE, "--fail-if: %s", fold_err());

	frames = fold_intern_new();
	st = fold_stacks_new(frames, 2);
	cmd_diag_init(&diag, strict);
	for (i = 0; i < 2; i++) {
		opt.names[i] = strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i];
		if (!(in = fold_in_open(argv[i]))) {
			status = fail(fold_err());
			continue;
		}
		cmd_progress_attach(NULL, in);
		if (fold_read_column(in, st, i, strip, &diag) < 0)
			status = fail(fold_err());
		if (fold_in_close(in) < 0)
			status = fail(fold_err());
	}
	cmd_diag_summary(&diag, "line", "lines");
	out = cmd_stdout();
	opt.gated = ngates > 0;
	if (status == EXIT_OK && (report || ngates)) {
		if (!(rep = fold_diffreport_new(st, &opt))) {
			status = fail(fold_err());
		} else {
			/* a profiler that recorded nothing must not pass */
			const char *e;
			for (i = 0; (e = fold_diffreport_empty(rep, i)); i++)
				cmd_warn("%s%s", ngates ? "" : "warning: ", e);
			nempty = i;
			wo.gates = gates;
			wo.ngates = ngates;
			wo.st = st;
			if (report && fold_diff_write(out, rep, &wo) < 0)
				status = fail(fold_err());
			nhit = fold_diffreport_gate(rep, gates, ngates, hit,
			    NULL);
		}
	} else if (status == EXIT_OK) {
		if (normalize && fold_diff_normalize(st) < 0)
			status = fail(fold_err());
		else
			fold_write(out, st);
	}
	if (status == EXIT_OK && ngates && (nhit > 0 || nempty > 0))
		status = EXIT_FAIL;
	fold_diffreport_free(rep);
	fold_stacks_free(st);
	fold_intern_free(frames);
	free(gates);
	free(gatetext);
	/* diff's status for trouble, not cmd_close's */
	if (cmd_close(out, EXIT_OK) != EXIT_OK)
		status = EXIT_TROUBLE;
	return status;
}
