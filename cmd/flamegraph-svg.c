/*
 * flamegraph-svg: render folded stacks (or a "before after" differential
 * profile) as an interactive SVG flame graph, in the look and with the
 * options of flamegraph.pl.
 *
 *	perf script | stackcollapse-perf | flamegraph-svg > cpu.svg
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/input.h"
#include "formats/palette.h"
#include "formats/svg.h"
#include "cmd/opt.h"
#include "cmd/util.h"

#define SVG(opts) ((struct fold_svg_opt *)(opts))

static int
bgcolors(void *opts, const char *value, const char *more)
{
	if (fold_palette_bgcheck(value) < 0)
		return -1;
	SVG(opts)->bgcolors = value;
	return 0;
}

static int
colors(void *opts, const char *value, const char *more)
{
	return fold_palette_parse(value, &SVG(opts)->colors);
}

static int
cp(void *opts, const char *value, const char *more)
{
	SVG(opts)->cp = "palette.map";
	return 0;
}

/* N pixels, or N% of the total. */
static int
minwidth(void *opts, const char *value, const char *more)
{
	size_t len = strlen(value);
	char *num;

	SVG(opts)->minwidth_pct = len > 0 && value[len - 1] == '%';
	num = fold_strndup(value, len - SVG(opts)->minwidth_pct);
	SVG(opts)->minwidth = cmd_number("--minwidth", num);
	free(num);
	return 0;
}


#define OFF(field) offsetof(struct fold_svg_opt, field)

static const struct fold_option options[] = {
	{ .name = "bgcolors", .arg = "COLOR", .kind = FOLD_OPT_CALL,
	    .call = bgcolors,
	    .help = "yellow, blue, green, grey or #rrggbb background" },
	{ .name = "colors", .arg = "PALETTE", .kind = FOLD_OPT_CALL,
	    .call = colors,
	    .help = "hot (default), mem, io, java, js, perl, ..." },
	{ .name = "countname", .arg = "NAME", .kind = FOLD_OPT_TEXT,
	    .off = OFF(countname),
	    .help = "what the counts are (default: samples)" },
	{ .name = "cp", .kind = FOLD_OPT_CALL, .call = cp,
	    .help = "consistent colours, kept in palette.map" },
	{ .name = "factor", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(factor), .help = "show the counts multiplied by N" },
	{ .name = "flamechart", .kind = FOLD_OPT_FLAG, .off = OFF(flamechart),
	    .value = 1, .help = "stacks in input order: a flame chart" },
	{ .name = "fontsize", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(fontsize), .help = "text size in pixels (default: 12)" },
	{ .name = "fonttype", .arg = "FONT", .kind = FOLD_OPT_TEXT,
	    .off = OFF(fonttype), .help = "font family (default: Verdana)" },
	{ .name = "fontwidth", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(fontwidth), .above = 1,
	    .help = "character width per font size (default: 0.59)" },
	{ .name = "hash", .kind = FOLD_OPT_FLAG, .off = OFF(hash), .value = 1,
	    .help = "colours by flamegraph.pl's name hash" },
	{ .name = "height", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(frameheight), .min = 2,
	    .help = "frame height in pixels (default: 16)" },
	{ .name = "inverted", .kind = FOLD_OPT_FLAG, .off = OFF(inverted),
	    .value = 1, .help = "an icicle graph: the root at the top" },
	{ .name = "minwidth", .arg = "N[%]", .kind = FOLD_OPT_CALL,
	    .call = minwidth,
	    .help = "leave out boxes under N pixels or N% (default: 0.1)" },
	{ .name = "nameattr", .arg = "FILE", .kind = FOLD_OPT_TEXT,
	    .off = OFF(nameattr),
	    .help = "extra attributes of each function, from FILE" },
	{ .name = "nametype", .arg = "NAME", .kind = FOLD_OPT_TEXT,
	    .off = OFF(nametype),
	    .help = "the details line's label (default: Function:)" },
	{ .name = "negate", .kind = FOLD_OPT_FLAG, .off = OFF(negate),
	    .value = 1, .help = "swap red and blue in a differential graph" },
	{ .name = "no-javascript", .kind = FOLD_OPT_FLAG,
	    .off = OFF(javascript), .value = 0,
	    .help = "no script: a static picture" },
	{ .name = "notes", .arg = "TEXT", .kind = FOLD_OPT_TEXT,
	    .off = OFF(notes),
	    .help = "put TEXT in a comment at the top" },
	{ .name = "pretty-xml", .kind = FOLD_OPT_FLAG, .off = OFF(pretty),
	    .value = 1, .help = "indent the document, one element a line" },
	{ .name = "random", .kind = FOLD_OPT_FLAG, .off = OFF(random),
	    .value = 1, .help = "random colours, different on every run" },
	{ .name = "reverse", .kind = FOLD_OPT_FLAG, .off = OFF(reverse),
	    .value = 1, .help = "reverse each stack: who calls the hot code" },
	{ .name = "subtitle", .arg = "TEXT", .kind = FOLD_OPT_TEXT,
	    .off = OFF(subtitle), .help = "a second line under the title" },
	{ .name = "title", .arg = "TEXT", .kind = FOLD_OPT_TEXT,
	    .off = OFF(title),
	    .help = "the title (default: Flame Graph)" },
	{ .name = "total", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(total), .help = "the count that spans the whole width" },
	{ .name = "width", .arg = "N", .kind = FOLD_OPT_NUMBER,
	    .off = OFF(width), .min = 20, .above = 1,
	    .help = "image width in pixels (default: 1200)" },
	{ .name = NULL }
};

#undef OFF

/* A profile that cannot be read ends the run: no graph of a part. */
static int
read_one(void *g, struct fold_in *in, struct fold_diag *diag)
{
	return fold_svg_read(g, in, diag) < 0 ? -2 : 0;
}

int
main(int argc, char *argv[])
{
	struct fold_svg_opt opt = FOLD_SVG_OPT_INIT;
	struct cmd_common cc = { 0 };
	const struct cmd_optset sets[] = {
		{ NULL, options, &opt },
		{ NULL, cmd_opt_jobs, &cc },
		{ NULL, cmd_opt_progress, &cc },
		{ NULL, cmd_opt_strict, &cc },
	};
	struct fold_svg_info info;
	struct fold_diag diag;
	struct fold_svg *g;
	struct fold_out *out;
	int first, stopped, status = EXIT_OK;

	cmd_init(argv[0]);
	first = cmd_parse(argc, argv, sets, 4, "[file ...]");
	argc -= first;
	argv += first;
	cmd_split_opt(&cc, &opt.split);

	if (!(g = fold_svg_new(&opt)))
		cmd_die(EXIT_ERR, "%s", fold_err());
	cmd_diag_init(&diag, cc.strict);
	status = cmd_each_input(argv, argc, read_one, g, &diag, &stopped);
	if (stopped) {
		fold_svg_free(g);
		cmd_diag_summary(&diag, "line", "lines");
		return EXIT_ERR;
	}
	cmd_diag_summary(&diag, "line", "lines");
	out = cmd_stdout();
	if (fold_svg_write(g, out, &info) < 0) {
		cmd_warn("%s", fold_err());
		status = EXIT_ERR;
	} else {
		/* the picture says so, for a page that shows it; the
		   status too, for a job whose profiler caught nothing
		   (flamegraph.pl dies, inferno fails after its picture) */
		if (info.empty) {
			cmd_warn("no stack counts found");
			status = EXIT_ERR;
		}
		if (info.total_ignored)
			cmd_warn("warning: --total %g is below the sum of the "
			    "counts %g: ignored", opt.total, info.sum);
	}
	fold_svg_free(g);
	return cmd_close(out, status);
}
