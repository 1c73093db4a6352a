/*
 * pprof2folded: read pprof profiles (gzipped or raw protobuf, from Go,
 * gperftools, Node, Java agents ...) and write their samples as folded
 * stacks, several profiles with the same sample types merged.
 *
 *	curl -s host:6060/debug/pprof/profile?seconds=30 | pprof2folded |
 *	    flamegraph-svg > cpu.svg
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/util.h"
#include "formats/pprof.h"
#include "libfold/err.h"

static void
usage(FILE *f)
{
	fprintf(f, "usage: %s [-0] [--differential] [--filenames] "
	    "[--files-from LIST]\n"
	    "                    [--lines] [--list] [--max-size BYTES] "
	    "[--sample-index NAME|N]\n"
	    "                    [--strict] [--tag-focus KEY=REGEX] "
	    "[--tag-ignore KEY=REGEX]\n"
	    "                    [--tag-leaf KEY[,KEY...]] "
	    "[--tag-root KEY[,KEY...]]\n"
	    "                    [--progress | --no-progress] [profile ...]\n", progname);
}

static int
read_one(void *r, struct fold_in *in, struct fold_diag *diag)
{
	return pprof_read(r, in, diag);
}

int
main(int argc, char *argv[])
{
	enum { O_DIFFERENTIAL = 256, O_FILENAMES, O_FILES_FROM, O_LINES, O_LIST, O_MAX_SIZE, O_SAMPLE_INDEX,
	    O_STRICT, O_TAG_FOCUS, O_TAG_IGNORE, O_TAG_LEAF, O_TAG_ROOT };
	static const struct option longopts[] = {
		{ "differential", no_argument, NULL, O_DIFFERENTIAL },
		{ "filenames", no_argument, NULL, O_FILENAMES },
		{ "files-from", required_argument, NULL, O_FILES_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ "lines", no_argument, NULL, O_LINES },
		{ "list", no_argument, NULL, O_LIST },
		{ "max-size", required_argument, NULL, O_MAX_SIZE },
		{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS },
		{ "null", no_argument, NULL, '0' },
		{ "progress", no_argument, NULL, CMD_OPT_PROGRESS },
		{ "sample-index", required_argument, NULL, O_SAMPLE_INDEX },
		{ "strict", no_argument, NULL, O_STRICT },
		{ "tag-focus", required_argument, NULL, O_TAG_FOCUS },
		{ "tag-ignore", required_argument, NULL, O_TAG_IGNORE },
		{ "tag-leaf", required_argument, NULL, O_TAG_LEAF },
		{ "tag-root", required_argument, NULL, O_TAG_ROOT },
		{ NULL, 0, NULL, 0 }
	};
	struct pprof_readopt opt = PPROF_READOPT_INIT;
	const char **root = NULL, **leaf = NULL, **focus = NULL, **ignore = NULL;
	struct pprof_reader *r;
	struct fold_diag diag;
	struct fold_out *out;
	const char *list = NULL;
	int c, strict = 0, nul = 0, stopped, status;

	cmd_init(argv[0]);
	while ((c = getopt_long(argc, argv, "0h", longopts, NULL)) != -1) {
		switch (c) {
		case '0':
			nul = 1;
			break;
		case O_DIFFERENTIAL:
			opt.negative = PPROF_NEG_KEEP;
			break;
		case O_FILES_FROM:
			list = optarg;
			break;
		case O_FILENAMES:
			opt.filenames = 1;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case O_LINES:
			opt.lines = 1;
			break;
		case O_LIST:
			opt.list = 1;
			break;
		case O_MAX_SIZE:
			opt.max_size = cmd_size("--max-size", optarg);
			break;
		case O_SAMPLE_INDEX:
			opt.sample_index = optarg;
			break;
		case O_STRICT:
			strict = 1;
			break;
		case O_TAG_FOCUS:
			focus = fold_reallocarray(focus, opt.ntag_focus + 1,
			    sizeof *focus);
			focus[opt.ntag_focus++] = optarg;
			break;
		case O_TAG_IGNORE:
			ignore = fold_reallocarray(ignore, opt.ntag_ignore + 1,
			    sizeof *ignore);
			ignore[opt.ntag_ignore++] = optarg;
			break;
		case O_TAG_LEAF:
			cmd_keys("--tag-leaf", optarg, &leaf, &opt.ntag_leaf);
			break;
		case O_TAG_ROOT:
			cmd_keys("--tag-root", optarg, &root, &opt.ntag_root);
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
	opt.tag_root = root;
	opt.tag_leaf = leaf;
	opt.tag_focus = focus;
	opt.tag_ignore = ignore;
	if (!(r = pprof_reader_new(&opt)))
		cmd_die(EXIT_USAGE, "%s", fold_err());
	cmd_diag_init(&diag, strict);
	/* every profile is read (and each failure reported) before anything
	   is written: a merge with a profile missing would mislead */
	status = cmd_each_listed(argv + optind, argc - optind, list, nul,
	    read_one, r, &diag, &stopped);
	cmd_diag_summary(&diag, "sample", "samples");
	if (status == EXIT_OK) {
		out = cmd_stdout();
		if ((opt.list ? pprof_list(r, out) :
		    pprof_write_folded(r, out)) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		status = cmd_close(out, status);
	}
	pprof_reader_free(r);
	free(root);
	free(leaf);
	free(focus);
	free(ignore);
	return status;
}
