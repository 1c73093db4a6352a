/*
 * flamegraph-svg: render folded stacks (or a "before after" differential
 * profile) as an interactive SVG flame graph, in the look and with the
 * options of flamegraph.pl.
 *
 *	perf script | stackcollapse-perf | flamegraph-svg > cpu.svg
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/input.h"
#include "formats/palette.h"
#include "formats/svg.h"
#include "cmd/util.h"

enum {
	O_BGCOLORS = 256, O_COLORS, O_COUNTNAME, O_CP, O_FACTOR, O_FLAMECHART,
	O_FONTSIZE, O_FONTTYPE, O_FONTWIDTH, O_HASH, O_HEIGHT, O_INVERTED,
	O_MINWIDTH, O_NAMEATTR, O_NAMETYPE, O_NEGATE, O_NOJS, O_NOTES,
	O_PRETTY, O_RANDOM, O_REVERSE, O_STRICT, O_SUBTITLE, O_TITLE,
	O_TOTAL, O_WIDTH
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--cp] [--flamechart] [--hash] [--inverted] "
	    "[--negate] [--no-javascript]\n"
	    "       [--pretty-xml] [--random] [--reverse] [--strict] "
	    "[--bgcolors COLOR]\n"
	    "       [--colors PALETTE] [--countname NAME] [--factor N] "
	    "[--fontsize N]\n"
	    "       [--fonttype FONT] [--fontwidth N] [--height N] "
	    "[--minwidth N[%%]]\n"
	    "       [--nameattr FILE] [--nametype NAME] [--notes TEXT] "
	    "[--subtitle TEXT]\n"
	    "       [--title TEXT] [--total N] [--width N] "
	    "[--progress | --no-progress]\n"
	    "       [file ...]\n", progname);
}

/* A profile that cannot be read ends the run: no graph of a part. */
static int
read_one(void *g, struct fold_in *in, struct fold_diag *diag)
{
	return fold_svg_read(g, in, diag) < 0 ? -2 : 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "bgcolors", required_argument, NULL, O_BGCOLORS },
		{ "colors", required_argument, NULL, O_COLORS },
		{ "countname", required_argument, NULL, O_COUNTNAME },
		{ "cp", no_argument, NULL, O_CP },
		{ "factor", required_argument, NULL, O_FACTOR },
		{ "flamechart", no_argument, NULL, O_FLAMECHART },
		{ "fontsize", required_argument, NULL, O_FONTSIZE },
		{ "fonttype", required_argument, NULL, O_FONTTYPE },
		{ "fontwidth", required_argument, NULL, O_FONTWIDTH },
		{ "hash", no_argument, NULL, O_HASH },
		{ "height", required_argument, NULL, O_HEIGHT },
		{ "help", no_argument, NULL, 'h' },
		{ "inverted", no_argument, NULL, O_INVERTED },
		{ "minwidth", required_argument, NULL, O_MINWIDTH },
		{ "nameattr", required_argument, NULL, O_NAMEATTR },
		{ "nametype", required_argument, NULL, O_NAMETYPE },
		{ "negate", no_argument, NULL, O_NEGATE },
		{ "no-javascript", no_argument, NULL, O_NOJS },
		{ "notes", required_argument, NULL, O_NOTES },
		{ "pretty-xml", no_argument, NULL, O_PRETTY },
		{ "random", no_argument, NULL, O_RANDOM },
		{ "reverse", no_argument, NULL, O_REVERSE },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "subtitle", required_argument, NULL, O_SUBTITLE },
		{ "title", required_argument, NULL, O_TITLE },
		{ "total", required_argument, NULL, O_TOTAL },
		{ "width", required_argument, NULL, O_WIDTH },
		{ NULL, 0, NULL, 0 }
	};
	struct fold_svg_opt opt = FOLD_SVG_OPT_INIT;
	struct fold_svg_info info;
	struct fold_diag diag;
	struct fold_svg *g;
	struct fold_out *out;
	int c, strict = 0, stopped, status = EXIT_OK;
	size_t len;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case CMD_OPT_PROGRESS:
		case CMD_OPT_NO_PROGRESS:
			cmd_progress_opt(c);
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case O_BGCOLORS:
			if (fold_palette_bgcheck(optarg) < 0)
				cmd_die(EXIT_USAGE, "--bgcolors: %s", fold_err());
			opt.bgcolors = optarg;
			break;
		case O_COLORS:
			if (fold_palette_parse(optarg, &opt.colors) < 0)
				cmd_die(EXIT_USAGE, "--colors: %s", fold_err());
			break;
		case O_COUNTNAME:
			opt.countname = optarg;
			break;
		case O_CP:
			opt.cp = "palette.map";
			break;
		case O_FACTOR:
			opt.factor = cmd_number("--factor", optarg);
			break;
		case O_FLAMECHART:
			opt.flamechart = 1;
			break;
		case O_FONTSIZE:
			opt.fontsize = cmd_number("--fontsize", optarg);
			break;
		case O_FONTTYPE:
			opt.fonttype = optarg;
			break;
		case O_FONTWIDTH:
			opt.fontwidth = cmd_number("--fontwidth", optarg);
			if (opt.fontwidth == 0)
				cmd_die(EXIT_USAGE, "--fontwidth: must be above 0");
			break;
		case O_HASH:
			opt.hash = 1;
			break;
		case O_HEIGHT:
			opt.frameheight = cmd_number("--height", optarg);
			if (opt.frameheight < 2)
				cmd_die(EXIT_USAGE, "--height: must be at least 2");
			break;
		case O_INVERTED:
			opt.inverted = 1;
			break;
		case O_MINWIDTH:
			len = strlen(optarg);
			opt.minwidth_pct = len > 0 && optarg[len - 1] == '%';
			if (opt.minwidth_pct)
				optarg[len - 1] = '\0';
			opt.minwidth = cmd_number("--minwidth", optarg);
			break;
		case O_NAMEATTR:
			opt.nameattr = optarg;
			break;
		case O_NAMETYPE:
			opt.nametype = optarg;
			break;
		case O_NEGATE:
			opt.negate = 1;
			break;
		case O_NOJS:
			opt.javascript = 0;
			break;
		case O_NOTES:
			opt.notes = optarg;
			break;
		case O_PRETTY:
			opt.pretty = 1;
			break;
		case O_RANDOM:
			opt.random = 1;
			break;
		case O_REVERSE:
			opt.reverse = 1;
			break;
		case O_STRICT:
			strict = 1;
			break;
		case O_SUBTITLE:
			opt.subtitle = optarg;
			break;
		case O_TITLE:
			opt.title = optarg;
			break;
		case O_TOTAL:
			opt.total = cmd_number("--total", optarg);
			break;
		case O_WIDTH:
			opt.width = cmd_number("--width", optarg);
			if (opt.width <= 20)
				cmd_die(EXIT_USAGE, "--width: must be above 20");
			break;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;

	if (!(g = fold_svg_new(&opt)))
		cmd_die(EXIT_ERR, "%s", fold_err());
	cmd_diag_init(&diag, strict);
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
		if (info.empty)
			cmd_warn("warning: no stack counts found");
		if (info.total_ignored)
			cmd_warn("warning: --total %g is below the sum of the "
			    "counts %g: ignored", opt.total, info.sum);
	}
	fold_svg_free(g);
	return cmd_close(out, status);
}
