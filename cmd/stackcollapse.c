/*
 * stackcollapse: turn a profile of any format this toolkit reads into
 * folded stacks, telling each input's format from its first bytes and
 * converting it with the same reader as the tool of that format.
 *
 *	perf script | stackcollapse | flamegraph-svg > cpu.svg
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
#include "cmd/util.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [--detect | --list-formats] [--format NAME] "
	    "[--strict] [format options]\n"
	    "                     [--progress | --no-progress] "
	    "[-0] [--files-from LIST] [file ...]\n", progname);
	fprintf(f, "format options:\n"
	    "  perf:   [--addrs] [--all] [--context] [--event-filter EVENT] "
	    "[--inline] [--jit]\n"
	    "          [--kernel] [--pid] [--samples] [--srcline] [--tid]\n"
	    "  jfr:    [--event NAME] [--lines] [--signatures] [--threads] "
	    "[--weight FIELD]\n"
	    "  bcc:    [--kernel] [--map NAME] [--pid]\n"
	    "  pprof:  [--filenames] [--lines] [--max-size BYTES] "
	    "[--sample-index NAME|N]\n"
	    "          [--tag-focus KEY=REGEX] [--tag-ignore KEY=REGEX] "
	    "[--tag-leaf KEY[,KEY...]]\n"
	    "          [--tag-root KEY[,KEY...]]\n"
	    "  dtrace: [--includeoffset]\n"
	    "  sample: [--no-modules]\n"
	    "  chrome: [--lines] [--max-size BYTES] [--time]\n"
	    "  svg:    [--countname NAME]\n"
	    "  vtune:  [--no-modules]\n"
	    "  ghcprof: [--bytes | --ticks | --time]\n");
}

static int
list_formats(void)
{
	struct fold_out *out = cmd_stdout();
	size_t i;

	for (i = 0; i < collapse_nformats; i++)
		fold_out_printf(out, "%-8s %-21s %s\n",
		    collapse_formats[i].name, collapse_formats[i].tool,
		    collapse_formats[i].what);
	return cmd_close(out, EXIT_OK);
}

/* --detect: "NAME: FORMAT" for each input. */
static int
detect_one(void *arg, struct fold_in *in, struct fold_diag *diag)
{
	const struct collapse_format *f;

	if (collapse_detect(in, &f) < 0)
		return -1;
	fold_out_printf(arg, "%s: %s\n", fold_in_name(in), f ? f->name :
	    "empty");
	return 0;
}

int
main(int argc, char *argv[])
{
	enum { O_ADDRS = 256, O_ALL, O_BYTES, O_CONTEXT, O_COUNTNAME, O_DETECT, O_EVENT,
	    O_EVENT_FILTER, O_FILENAMES, O_FILES_FROM, O_FORMAT, O_INCLUDEOFFSET, O_INLINE,
	    O_JIT, O_KERNEL, O_LINES, O_LIST_FORMATS, O_MAP, O_MAX_SIZE,
	    O_NO_MODULES, O_PID, O_SAMPLE_INDEX,
	    O_SAMPLES, O_SIGNATURES, O_SRCLINE, O_STRICT, O_TAG_FOCUS,
	    O_TAG_IGNORE, O_TAG_LEAF, O_TAG_ROOT, O_THREADS, O_TICKS, O_TID,
	    O_TIME,
	    O_WEIGHT };
	static const struct option longopts[] = {
		{ "addrs", no_argument, NULL, O_ADDRS },
		{ "all", no_argument, NULL, O_ALL },
		{ "bytes", no_argument, NULL, O_BYTES },
		{ "context", no_argument, NULL, O_CONTEXT },
		{ "countname", required_argument, NULL, O_COUNTNAME },
		{ "detect", no_argument, NULL, O_DETECT },
		{ "event", required_argument, NULL, O_EVENT },
		{ "event-filter", required_argument, NULL, O_EVENT_FILTER },
		{ "filenames", no_argument, NULL, O_FILENAMES },
		{ "files-from", required_argument, NULL, O_FILES_FROM },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "includeoffset", no_argument, NULL, O_INCLUDEOFFSET },
		{ "inline", no_argument, NULL, O_INLINE },
		{ "jit", no_argument, NULL, O_JIT },
		{ "kernel", no_argument, NULL, O_KERNEL },
		{ "lines", no_argument, NULL, O_LINES },
		{ "list-formats", no_argument, NULL, O_LIST_FORMATS },
		{ "map", required_argument, NULL, O_MAP },
		{ "max-size", required_argument, NULL, O_MAX_SIZE },
		{ "no-modules", no_argument, NULL, O_NO_MODULES },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "null", no_argument, NULL, '0' },
		{ "pid", no_argument, NULL, O_PID },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "sample-index", required_argument, NULL, O_SAMPLE_INDEX },
		{ "samples", no_argument, NULL, O_SAMPLES },
		{ "signatures", no_argument, NULL, O_SIGNATURES },
		{ "srcline", no_argument, NULL, O_SRCLINE },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "tag-focus", required_argument, NULL, O_TAG_FOCUS },
		{ "tag-ignore", required_argument, NULL, O_TAG_IGNORE },
		{ "tag-leaf", required_argument, NULL, O_TAG_LEAF },
		{ "tag-root", required_argument, NULL, O_TAG_ROOT },
		{ "threads", no_argument, NULL, O_THREADS },
		{ "ticks", no_argument, NULL, O_TICKS },
		{ "tid", no_argument, NULL, O_TID },
		{ "time", no_argument, NULL, O_TIME },
		{ "weight", required_argument, NULL, O_WEIGHT },
		{ NULL, 0, NULL, 0 }
	};
	struct collapse_opt opt = COLLAPSE_OPT_INIT;
	struct pprof_readopt *po = &opt.pprof;
	const char **root = NULL, **leaf = NULL, **focus = NULL, **ignore = NULL;
	const struct collapse_format *forced = NULL;
	struct fold_diag diag;
	struct fold_out *out;
	int c, strict = 0, detect = 0, status = EXIT_OK, stopped, ghc = 0;
	int nul = 0;
	const char *list = NULL;
	char **files;
	int nfiles;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "0h", longopts, NULL)) != -1) {
		switch (c) {
		case '0':
			nul = 1;
			break;
		case O_ADDRS:
			opt.perf.addrs = 1;
			break;
		case O_ALL:
			opt.perf.kernel = opt.perf.jit = 1;
			break;
		case O_BYTES:
			ghc = ghc == O_TICKS ? -1 : O_BYTES;
			opt.ghcprof.source = GHCPROF_BYTES;
			break;
		case O_CONTEXT:
			opt.perf.context = 1;
			break;
		case O_COUNTNAME:
			opt.svgread.countname = optarg;
			break;
		case O_DETECT:
			detect = 1;
			break;
		case O_EVENT:
			if (!*optarg || strpbrk(optarg, " \t\n{}"))
				cmd_die(EXIT_USAGE, "--event: not an event "
				    "name: '%s'", optarg);
			opt.jfr.event = optarg;
			break;
		case O_EVENT_FILTER:
			if (!*optarg || strpbrk(optarg, " \t\n"))
				cmd_die(EXIT_USAGE, "--event-filter: not an "
				    "event name: '%s'", optarg);
			opt.perf.event = optarg;
			break;
		case O_FILENAMES:
			po->filenames = 1;
			break;
		case O_FILES_FROM:
			list = optarg;
			break;
		case O_FORMAT:
			if (!(forced = collapse_find(optarg)))
				cmd_die(EXIT_USAGE, "--format: unknown format "
				    "'%s' (see --list-formats)", optarg);
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case O_INCLUDEOFFSET:
			opt.dtrace.includeoffset = 1;
			break;
		case O_INLINE:
			opt.perf.inlined = 1;
			break;
		case O_JIT:
			opt.perf.jit = 1;
			break;
		case O_KERNEL:
			opt.perf.kernel = opt.bcc.kernel = 1;
			break;
		case O_LINES:
			opt.jfr.lines = po->lines = opt.chrome.lines = 1;
			break;
		case O_LIST_FORMATS:
			return list_formats();
		case O_MAP:
			if (!*optarg || strpbrk(optarg, " \t\n[]:"))
				cmd_die(EXIT_USAGE, "--map: not a map name: "
				    "'%s'", optarg);
			opt.bcc.map = optarg;
			break;
		case O_MAX_SIZE:
			po->max_size = opt.chrome.max_size =
			    cmd_size("--max-size", optarg);
			break;
		case O_NO_MODULES:
			opt.sample.no_modules = opt.vtune.no_modules = 1;
			break;
		case O_PID:
			opt.perf.pid = opt.bcc.pid = 1;
			break;
		case O_SAMPLE_INDEX:
			po->sample_index = optarg;
			break;
		case O_SAMPLES:
			opt.perf.samples = 1;
			break;
		case O_SIGNATURES:
			opt.jfr.signatures = 1;
			break;
		case O_SRCLINE:
			opt.perf.srcline = 1;
			break;
		case O_STRICT:
			strict = 1;
			break;
		case O_TAG_FOCUS:
			focus = fold_reallocarray(focus, po->ntag_focus + 1,
			    sizeof *focus);
			focus[po->ntag_focus++] = optarg;
			break;
		case O_TAG_IGNORE:
			ignore = fold_reallocarray(ignore, po->ntag_ignore + 1,
			    sizeof *ignore);
			ignore[po->ntag_ignore++] = optarg;
			break;
		case O_TAG_LEAF:
			cmd_keys("--tag-leaf", optarg, &leaf, &po->ntag_leaf);
			break;
		case O_TAG_ROOT:
			cmd_keys("--tag-root", optarg, &root, &po->ntag_root);
			break;
		case O_THREADS:
			opt.jfr.threads = 1;
			break;
		case O_TICKS:
			ghc = ghc == O_BYTES ? -1 : O_TICKS;
			opt.ghcprof.source = GHCPROF_TICKS;
			break;
		case O_TID:
			opt.perf.tid = 1;
			break;
		case O_TIME:
			opt.chrome.time = 1;
			break;
		case O_WEIGHT:
			if (!*optarg || strpbrk(optarg, " \t\n="))
				cmd_die(EXIT_USAGE, "--weight: not a field "
				    "name: '%s'", optarg);
			opt.jfr.weight = optarg;
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
	/* --time also means microseconds to chrome: only these two clash */
	if (ghc < 0)
		cmd_die(EXIT_USAGE, "--bytes cannot be used with --ticks");
	po->tag_root = root;
	po->tag_leaf = leaf;
	po->tag_focus = focus;
	po->tag_ignore = ignore;

	files = argv + optind;
	nfiles = argc - optind;
	if (list)
		nfiles = cmd_files_from(files, nfiles, list, nul, &files);
	/* an empty list reads nothing, not standard input */
	if (list && nfiles == 0)
		cmd_warn("%s: no file named", list);
	else if (detect) {
		cmd_diag_init(&diag, strict);
		out = cmd_stdout();
		status = cmd_each_input(files, nfiles, detect_one, out, &diag,
		    &stopped);
		status = cmd_close(out, status);
	} else
		status = cmd_collapse(forced, &opt, strict, files, nfiles,
		    "line", "lines");
	free(root);
	free(leaf);
	free(focus);
	free(ignore);
	if (list)
		free(files);
	return status;
}
