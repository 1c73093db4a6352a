#include "formats/diffreport.h"
#include "formats/github.h"
#include "formats/html.h"
#include "formats/junit.h"

int
fold_diff_write(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_diffwriteopt *opt)
{
	switch (opt->format) {
	case FOLD_FORMAT_HTML: {
		struct fold_html_opt ho = FOLD_HTML_OPT_INIT;
		ho.gates = opt->gates;
		ho.ngates = opt->ngates;
		ho.changes = opt->top;
		ho.st = opt->st;
		ho.colorby = opt->colorby;
		return fold_html_report(out, r, &ho);
	}
	case FOLD_FORMAT_JUNIT:
		return fold_junit_report(out, r, opt->gates, opt->ngates);
	case FOLD_FORMAT_GITHUB:
		fold_github_report(out, r, opt->gates, opt->ngates);
		return 0;
	default:
		fold_diff_table_write(out, r, opt->format, opt->top);
		return 0;
	}
}
