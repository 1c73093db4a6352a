#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "formats/html.h"
#include "formats/svg.h"
#include "formats/table.h"
#include "formats/xml.h"

/*
 * Plain CSS, no web font: the page must look the same offline. The
 * graph keeps its own width; a narrow window scrolls it sideways.
 */
static const char style[] =
    "body { font: 14px/1.4 system-ui, -apple-system, 'Segoe UI', "
    "sans-serif; margin: 1.5em; color: #222; }\n"
    "h1 { font-size: 1.5em; margin: 0 0 .5em; }\n"
    "h2 { font-size: 1.2em; margin: 1.5em 0 .5em; }\n"
    ".verdict { padding: .6em 1em; border-radius: 4px; margin: .5em 0; "
    "border: 1px solid; }\n"
    ".verdict p { margin: 0; font-weight: bold; }\n"
    ".verdict ul { margin: .4em 0 0; padding-left: 1.4em; }\n"
    ".pass { background: #e6f4e6; border-color: #8c8; }\n"
    ".fail { background: #fbe5e5; border-color: #d88; }\n"
    ".none { background: #f2f2f2; border-color: #bbb; }\n"
    ".notes { color: #444; padding-left: 1.4em; }\n"
    "table { border-collapse: collapse; margin: .3em 0; }\n"
    "th, td { padding: .15em .6em; border-bottom: 1px solid #e4e4e4; }\n"
    "th { background: #f4f4f4; font-weight: 600; }\n"
    "td { text-align: right; font-variant-numeric: tabular-nums; "
    "white-space: nowrap; }\n"
    "td.fn { text-align: left; font-family: ui-monospace, monospace; "
    "white-space: normal; word-break: break-all; max-width: 40em; }\n"
    "tr.sig td.fn { font-weight: bold; }\n"
    "td.up { color: #b00; font-weight: bold; }\n"
    "td.down { color: #00b; font-weight: bold; }\n"
    ".graph { overflow-x: auto; }\n"
    ".tops { display: flex; flex-wrap: wrap; gap: 2em; }\n"
    ".caption, .legend { color: #555; margin: .3em 0; }\n"
    ".key { padding: 0 .35em; border-radius: 2px; }\n"
    ".grew { background: rgb(255,0,0); color: #000; }\n"
    ".fell { background: rgb(0,0,255); color: #fff; }\n"
    "code { font-family: ui-monospace, monospace; }\n";

struct verdict {
	struct fold_out *out;
	size_t nhit;
};

static void
hit(void *arg, const struct fold_gatehit *h)
{
	struct verdict *v = arg;

	fold_out_puts(v->out, "<li><code>");
	fold_xml_puts(v->out, h->line);
	fold_out_puts(v->out, "</code></li>\n");
	v->nhit++;
}

static void
gate_list(struct fold_out *out, const struct fold_html_opt *opt)
{
	size_t i;

	for (i = 0; i < opt->ngates; i++) {
		fold_out_puts(out, i ? ", <code>" : "<code>");
		fold_xml_puts(out, opt->gates[i].text);
		fold_out_puts(out, "</code>");
	}
}

/*
 * The verdict leads the page. The failing lines are known only after
 * the gate ran, and the box's class before: the gate runs twice, once
 * to count.
 */
static void
write_verdict(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_html_opt *opt)
{
	struct verdict v = { out, 0 };
	size_t n, i;
	const char *e;

	if (opt->ngates == 0) {
		fold_out_puts(out, "<div class=\"verdict none\" id=\"verdict\">"
		    "<p>No gate given (--fail-if): changes are shown, not "
		    "judged.</p></div>\n");
		return;
	}
	if (fold_diffreport_empty(r, 0)) {
		fold_out_puts(out, "<div class=\"verdict fail\" id=\"verdict\">"
		    "<p>Fail: a profile has no samples; gate ");
		gate_list(out, opt);
		fold_out_puts(out, ".</p>\n<ul>\n");
		for (i = 0; (e = fold_diffreport_empty(r, i)); i++) {
			fold_out_puts(out, "<li><code>");
			fold_xml_puts(out, e);
			fold_out_puts(out, "</code></li>\n");
		}
		fold_diffreport_gate(r, opt->gates, opt->ngates, hit, &v);
		fold_out_puts(out, "</ul></div>\n");
		return;
	}
	n = fold_diffreport_gate(r, opt->gates, opt->ngates, NULL, NULL);
	if (n == 0) {
		fold_out_puts(out, "<div class=\"verdict pass\" id=\"verdict\">"
		    "<p>Pass: no significant change crosses ");
		gate_list(out, opt);
		fold_out_puts(out, ".</p></div>\n");
		return;
	}
	fold_out_printf(out, "<div class=\"verdict fail\" id=\"verdict\">"
	    "<p>Fail: %zu function%s cross%s ", n, n == 1 ? "" : "s",
	    n == 1 ? "es" : "");
	gate_list(out, opt);
	fold_out_puts(out, ".</p>\n<ul>\n");
	fold_diffreport_gate(r, opt->gates, opt->ngates, hit, &v);
	fold_out_puts(out, "</ul></div>\n");
}

static void
write_notes(struct fold_out *out, const struct fold_diffreport *r)
{
	const char *s;
	size_t i;

	fold_out_puts(out, "<ul class=\"notes\">\n");
	for (i = 0; (s = fold_diffreport_note(r, i)); i++) {
		fold_out_puts(out, "<li>");
		fold_xml_puts(out, s);
		fold_out_puts(out, "</li>\n");
	}
	fold_out_puts(out, "</ul>\n");
}

static void
write_changes(struct fold_out *out, const struct fold_diffreport *r,
    size_t top)
{
	struct fold_table t;

	fold_diff_table(r, FOLD_FORMAT_HTML, top, &t);
	t.id = "changes";
	fold_out_puts(out, "<h2>Changed functions</h2>\n");
	fold_table_write(out, &t, FOLD_FORMAT_HTML);
	fold_out_putc(out, '\n');
	if (t.caption) {
		fold_out_puts(out, "<p class=\"caption\">");
		fold_xml_puts(out, t.caption);
		fold_out_puts(out, "</p>\n");
	}
	fold_table_release(&t);
}

/*
 * What the graph shows, in the words of the table: its colours are not
 * flamegraph.pl's changes in counts, and the legend says so.
 */
static int
write_graph(struct fold_out *out, struct fold_svg *g,
    const struct fold_diffreport *r, const struct fold_html_opt *opt)
{
	int total = opt->colorby == FOLD_METRIC_TOTAL;

	fold_out_printf(out, "<h2>Differential flame graph</h2>\n"
	    "<p class=\"legend\">Width: a frame's share of the samples "
	    "after. Colour: the change of its <b>%s</b> %s, %s (<code>"
	    "--color-by %s</code>): <span class=\"key grew\">red "
	    "grew</span>, <span class=\"key fell\">blue fell</span>, the "
	    "more the deeper, white unchanged. A frame's tooltip gives the "
	    "change of its self and its total %s. Click a frame to zoom; "
	    "Search (or Ctrl-F) takes a regular expression.</p>\n"
	    "<div class=\"graph\" id=\"graph\">\n",
	    total ? "total" : "self",
	    fold_diffreport_units(r) ? "count per unit of work" : "share",
	    total ? "with the functions it calls" : "its own samples",
	    total ? "total" : "self",
	    fold_diffreport_units(r) ? "count per unit, as in the table" :
	    "share in points (pp), as in the table: of each profile's own "
	    "total, whatever the totals");
	if (fold_svg_write(g, out, NULL) < 0)
		return -1;
	fold_out_puts(out, "</div>\n");
	return 0;
}

static int
write_top(struct fold_out *out, const struct fold_stacks *st, int col,
    size_t top)
{
	static const char *const head[] = { "Top before", "Top after" };
	static const char *const id[] = { "top-before", "top-after" };
	struct fold_topopt o = FOLD_TOPOPT_INIT;
	struct fold_table t;

	o.format = FOLD_FORMAT_HTML;
	o.top = top;
	o.col = col;
	if (fold_top_table(st, &o, &t) < 0)
		return -1;
	t.id = id[col];
	fold_out_printf(out, "<div><h2>%s</h2>\n<p class=\"caption\">",
	    head[col]);
	fold_xml_puts(out, t.caption);
	fold_out_puts(out, "</p>\n");
	fold_table_write(out, &t, FOLD_FORMAT_HTML);
	fold_out_puts(out, "</div>\n");
	fold_table_release(&t);
	return 0;
}

/*
 * The graph is drawn before the page starts, so that a graph that
 * cannot be made leaves no half page.
 */
int
fold_html_report(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_html_opt *opt)
{
	struct fold_svg_opt so = FOLD_SVG_OPT_INIT;
	const char *name[2];
	struct fold_svg *g = NULL;
	char *title = NULL;
	size_t n;
	int col, rc = -1;

	if (opt->st) {
		for (col = 0; col < 2; col++)
			name[col] = fold_diffreport_input(r, col);
		n = strlen(name[0]) + strlen(name[1]) + 8;
		title = fold_malloc(n);
		snprintf(title, n, "%s -> %s", name[0], name[1]);
		so.title = title;
		so.embed = 1;
		so.report = r;
		so.colorby = opt->colorby;
		if (!(g = fold_svg_new(&so)) || fold_svg_add(g, opt->st) < 0)
			goto done;
	}
	/* inline styles and the graph's inline script; nothing else loads */
	fold_out_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta http-equiv=\"Content-Security-Policy\" content=\""
	    "default-src 'none'; style-src 'unsafe-inline'; "
	    "script-src 'unsafe-inline'; img-src data:\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n<title>");
	fold_xml_puts(out, opt->title);
	fold_out_printf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n"
	    "<h1>", style);
	fold_xml_puts(out, opt->title);
	fold_out_puts(out, "</h1>\n");
	write_verdict(out, r, opt);
	write_notes(out, r);
	write_changes(out, r, opt->changes);
	if (g) {
		if (write_graph(out, g, r, opt) < 0)
			goto done;
		fold_out_puts(out, "<div class=\"tops\">\n");
		for (col = 0; col < 2; col++)
			if (write_top(out, opt->st, col, opt->top) < 0)
				goto done;
		fold_out_puts(out, "</div>\n");
	}
	fold_out_puts(out, "</body>\n</html>\n");
	rc = 0;
done:
	fold_svg_free(g);
	free(title);
	return rc;
}
