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
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "libfold/filter.h"
#include "libfold/report.h"
#include "formats/diffreport.h"
#include "formats/folded.h"
#include "cmd/opt.h"
#include "cmd/util.h"

/* diff(1)'s statuses: 1 is "a regression", so trouble is 2 */
enum { EXIT_FAIL = 1, EXIT_TROUBLE = 2 };

/* The options: the report's and its writer's, then what main passes on. */
struct diff {
	struct fold_diffopt opt;
	struct fold_diffwriteopt wo;
	unsigned long long top;
	const char **gatetext;	/* --fail-if, as given */
	size_t ngates;
	int normalize, report, strip;
	struct split_opt split;		/* how a large file is read */
};

static void
hit(void *arg, const struct fold_gatehit *h)
{
	cmd_warn("regression: %s", h->line);
}

static int
alpha(void *opts, const char *value, const char *more)
{
	struct diff *d = opts;

	d->opt.alpha = cmd_number("--alpha", value);
	if (d->opt.alpha <= 0 || d->opt.alpha >= 1)
		return fold_seterr("must be between 0 and 1");
	return 0;
}

/* P or P%, at most 100 */
static int
gatefloor(void *opts, const char *value, const char *more)
{
	char *t = fold_strdup(value);
	double v;

	if (*t && t[strlen(t) - 1] == '%')
		t[strlen(t) - 1] = '\0';
	v = cmd_number("--floor", t);
	free(t);
	if (v > 100)
		return fold_seterr("above 100%%");
	((struct diff *)opts)->opt.floor = v / 100;
	return 0;
}

/* self or total: the change that colours the HTML report's graph */
static int
colorby(void *opts, const char *value, const char *more)
{
	enum fold_metric *m = &((struct diff *)opts)->wo.colorby;

	if (strcmp(value, "self") == 0)
		*m = FOLD_METRIC_SELF;
	else if (strcmp(value, "total") == 0)
		*m = FOLD_METRIC_TOTAL;
	else
		return fold_seterr("self or total, not '%s'", value);
	return 0;
}

static int
format(void *opts, const char *value, const char *more)
{
	return fold_format_parse(value, FOLD_DIFF_FORMATS,
	    &((struct diff *)opts)->wo.format);
}

/* auto, W or W1,W2: the weight of one sample before and after. */
static int
weight(void *opts, const char *value, const char *more)
{
	double *w = ((struct diff *)opts)->opt.weight;
	const char *comma = strchr(value, ',');
	char *first;

	if (strcmp(value, "auto") == 0) {
		w[0] = w[1] = 0;
		return 0;
	}
	if (!comma) {
		w[0] = w[1] = cmd_number("--weight", value);
	} else {
		first = fold_strndup(value, comma - value);
		w[0] = cmd_number("--weight", first);
		w[1] = cmd_number("--weight", comma + 1);
		free(first);
	}
	if (w[0] == 0 || w[1] == 0)
		return fold_seterr("must be above 0");
	return 0;
}

#define OFF(field) offsetof(struct diff, field)

static const struct fold_option options[] = {
	{ .name = "alpha", .arg = "Q", .kind = FOLD_OPT_CALL, .call = alpha,
	    .help = "the false discovery rate (default 0.05)" },
	{ .name = "color-by", .arg = "self|total", .kind = FOLD_OPT_CALL,
	    .call = colorby,
	    .help = "html graph: colour by self (default) or total change" },
	{ .name = "fail-if", .arg = "EXPR", .kind = FOLD_OPT_LIST,
	    .off = OFF(gatetext), .countoff = OFF(ngates),
	    .help = "exit 1 if a significant change crosses EXPR" },
	{ .name = "floor", .arg = "P%", .kind = FOLD_OPT_CALL, .call = gatefloor,
	    .help = "the gate passes over shares below P% (default 1%)" },
	{ .name = "format", .arg = "FORMAT", .kind = FOLD_OPT_CALL,
	    .call = format,
	    .help = "text (default), markdown, tsv, html, junit, github" },
	{ .name = "normalize", .shortname = 'n', .kind = FOLD_OPT_FLAG,
	    .off = OFF(normalize), .value = 1,
	    .help = "scale the counts before to the total after" },
	{ .name = "report", .shortname = 'r', .kind = FOLD_OPT_FLAG,
	    .off = OFF(report), .value = 1,
	    .help = "write the table of changed functions" },
	{ .name = "strip-hex", .shortname = 's', .kind = FOLD_OPT_FLAG,
	    .off = OFF(strip), .value = 1,
	    .help = "compare each 0x number in a stack as 0x..." },
	{ .name = "top", .arg = "N", .kind = FOLD_OPT_UINT, .off = OFF(top),
	    .help = "write only the first N rows of the report" },
	{ .name = "units-after", .arg = "M", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(opt.units[1]), .min = 0, .above = 1,
	    .help = "the work done in after, with --units-before" },
	{ .name = "units-before", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(opt.units[0]), .min = 0, .above = 1,
	    .help = "the work done in before: compare per unit of it" },
	{ .name = "weight", .arg = "auto|W[,W]", .kind = FOLD_OPT_CALL,
	    .call = weight, .help = "what one sample counts (default auto)" },
	{ .name = NULL }
};

#undef OFF

static int
fail(const char *msg)
{
	cmd_warn("%s", msg);
	return EXIT_TROUBLE;
}
/*
 * A flame graph of the two columns colours each frame by its change in
 * counts, as flamegraph.pl does: when the totals differ, that is not the
 * change in share, and a function whose share fell can show as grown.
 * Says so when they differ by more than 10% (without -n, which scales
 * the before counts to the after total).
 */
static void
totals(const struct fold_stacks *st)
{
	struct fold_count t[2];
	char a[FOLD_COUNT_BUFSZ], b[FOLD_COUNT_BUFSZ];
	double x, y;

	if (fold_stacks_total(st, 0, &t[0]) < 0 ||
	    fold_stacks_total(st, 1, &t[1]) < 0)
		return;
	x = fold_count_val(&t[0]);
	y = fold_count_val(&t[1]);
	if (x <= 0 || y <= 0 || fabs(y - x) <= 0.1 * (x > y ? x : y))
		return;
	fold_count_fmt(&t[0], a);
	fold_count_fmt(&t[1], b);
	cmd_warn("warning: the totals differ (%s before, %s after, %+.0f%%): "
	    "a flame graph of this colours the change in counts, not in "
	    "share; -n scales the before counts to the after total", a, b,
	    100 * (y - x) / x);
}

/*
 * Reads a profile into column col of st: in parts on threads when it is
 * a large file (formats/folded.h), but with --strip-hex, whose rewrite of
 * each stack has one buffer.
 */
static int
read_column(const struct diff *d, struct fold_in *in, struct fold_stacks *st,
    int col, struct fold_diag *diag)
{
	struct fold_readopt opt = FOLD_READOPT_INIT;

	if (d->strip)
		return fold_read_column(in, st, col, 1, diag);
	opt.col = col;
	return folded_read(in, st, &opt, diag, &d->split);
}

/*
 * Compares the profiles files[0] and files[1] as d says, writing the
 * result; returns diff's status.
 */
static int
compare(struct diff *d, char *files[], int strict)
{
	struct fold_diffreport *rep = NULL;
	struct fold_gate *gates;
	struct fold_intern *frames;
	struct fold_stacks *st;
	struct fold_diag diag;
	struct fold_out *out;
	struct fold_in *in;
	size_t nhit = 0;
	int i, nempty = 0, status = EXIT_OK;

	gates = fold_reallocarray(NULL, d->ngates ? d->ngates : 1,
	    sizeof *gates);
	for (i = 0; i < (int)d->ngates; i++)
		if (fold_gate_parse(d->gatetext[i], d->opt.units[0] > 0,
		    &gates[i]) < 0)
			cmd_die(EXIT_USAGE, "--fail-if: %s", fold_err());

	frames = fold_intern_new();
	st = fold_stacks_new(frames, 2);
	cmd_diag_init(&diag, strict);
	for (i = 0; i < 2; i++) {
		d->opt.names[i] = strcmp(files[i], "-") == 0 ? "<stdin>" :
		    files[i];
		if (!(in = fold_in_open(files[i]))) {
			status = fail(fold_err());
			continue;
		}
		cmd_progress_attach(NULL, in);
		if (read_column(d, in, st, i, &diag) < 0)
			status = fail(fold_err());
		if (fold_in_close(in) < 0)
			status = fail(fold_err());
	}
	cmd_diag_summary(&diag, "line", "lines");
	out = cmd_stdout();
	d->opt.gated = d->ngates > 0;
	if (status == EXIT_OK && (d->report || d->ngates)) {
		if (!(rep = fold_diffreport_new(st, &d->opt))) {
			status = fail(fold_err());
		} else {
			/* a profiler that recorded nothing must not pass */
			const char *e;
			for (i = 0; (e = fold_diffreport_empty(rep, i)); i++)
				cmd_warn("%s%s", d->ngates ? "" : "warning: ",
				    e);
			nempty = i;
			d->wo.gates = gates;
			d->wo.ngates = d->ngates;
			d->wo.st = st;
			if (d->report && fold_diff_write(out, rep, &d->wo) < 0)
				status = fail(fold_err());
			nhit = fold_diffreport_gate(rep, gates, d->ngates, hit,
			    NULL);
		}
	} else if (status == EXIT_OK) {
		if (!d->normalize)
			totals(st);
		if (d->normalize && fold_diff_normalize(st) < 0)
			status = fail(fold_err());
		else
			fold_write_jobs(out, st, split_jobs(&d->split));
	}
	if (status == EXIT_OK && d->ngates && (nhit > 0 || nempty > 0))
		status = EXIT_FAIL;
	fold_diffreport_free(rep);
	fold_stacks_free(st);
	fold_intern_free(frames);
	free(gates);
	/* diff's status for trouble, not cmd_close's */
	if (cmd_close(out, EXIT_OK) != EXIT_OK)
		status = EXIT_TROUBLE;
	return status;
}

int
main(int argc, char *argv[])
{
	struct diff d = { .opt = FOLD_DIFFOPT_INIT,
	    .wo = FOLD_DIFFWRITEOPT_INIT };
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ NULL, options, &d },
		{ NULL, cmd_opt_jobs, &cc },
		{ NULL, cmd_opt_progress, &cc },
		{ NULL, cmd_opt_strict, &cc },
	};
	int first, status;

	cmd_init(argv[0]);
	cmd_failure = EXIT_TROUBLE;
	first = cmd_parse(argc, argv, sets, 4, "before after");
	argc -= first;
	argv += first;
	cmd_split_opt(&cc, &d.split);
	if (argc != 2)
		cmd_die(EXIT_USAGE, "two profiles to compare: %d file%s given",
		    argc, argc == 1 ? "" : "s");
	if ((d.opt.units[0] > 0) != (d.opt.units[1] > 0))
		cmd_die(EXIT_USAGE, "--units-before and --units-after go "
		    "together");
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		cmd_die(EXIT_USAGE, "only one input can be standard input");
	d.wo.top = d.top;
	status = compare(&d, argv, cc.strict);
	cmd_optset_release(sets, 3);
	return status;
}
