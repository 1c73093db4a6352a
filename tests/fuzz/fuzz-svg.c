/*
 * flamegraph-svg's whole pipeline, folded text in, SVG out, with options
 * picked by the first input byte: the SVG is well-formed XML (parsed by
 * libxml2), no frame name escapes its text (titles and labels hold text
 * only, and the only elements are those the writer makes), and the same
 * input gives the same bytes.
 */
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "tests/fuzz/fuzz.h"

#include "formats/svg.h"

static const char *const allowed[] = {
	"svg", "defs", "linearGradient", "stop", "style", "script", "rect",
	"text", "g", "title", "a", "line", "path",
};

static void
walk(xmlNode *n, int intext)
{
	size_t i;

	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		FUZZ_CHECK(!intext, "element <%s> inside a title or text",
		    (const char *)n->name);
		for (i = 0; i < sizeof allowed / sizeof *allowed; i++)
			if (strcmp((const char *)n->name, allowed[i]) == 0)
				break;
		FUZZ_CHECK(i < sizeof allowed / sizeof *allowed,
		    "unexpected element <%s>", (const char *)n->name);
		walk(n->children, strcmp((const char *)n->name, "title") == 0 ||
		    strcmp((const char *)n->name, "text") == 0);
	}
}

static char *
render(const struct fold_svg_opt *opt, const uint8_t *data, size_t size,
    size_t *len)
{
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_svg_info info;
	struct fold_out *out;
	struct fold_svg *g;
	struct fold_in *in;
	char *svg;

	g = fold_svg_new(opt);
	FUZZ_CHECK(g != NULL, "fold_svg_new: %s", fold_err());
	in = fuzz_in(data, size);
	diag.limit = 0;
	if (fold_svg_read(g, in, &diag) < 0) {
		fold_in_close(in);
		fold_svg_free(g);
		return NULL;
	}
	fold_in_close(in);
	out = fuzz_out_open();
	if (fold_svg_write(g, out, &info) < 0) {
		free(fuzz_out_take(out, len));
		fold_svg_free(g);
		return NULL;
	}
	svg = fuzz_out_take(out, len);
	FUZZ_CHECK(svg != NULL, "write: %s", fold_err());
	fold_svg_free(g);
	return svg;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_svg_opt opt = FOLD_SVG_OPT_INIT;
	unsigned flags = size ? data[0] : 0;
	char *svg, *again;
	size_t len, len2;
	xmlDoc *doc;

	if (size) {
		data++;
		size--;
	}
	opt.inverted = flags & 1;
	opt.reverse = flags >> 1 & 1;
	opt.flamechart = flags >> 2 & 1;
	opt.hash = flags >> 3 & 1;
	opt.negate = flags >> 4 & 1;
	opt.javascript = !(flags >> 5 & 1);
	opt.pretty = flags >> 6 & 1;
	if (flags & 128) {
		opt.colors = FOLD_PALETTE_JAVA;
		opt.minwidth = 0;
		opt.title = "<t&\"'>";
		opt.subtitle = "]]>";
		opt.notes = "--><x>";
		opt.countname = "<b>";
	}
	svg = render(&opt, data, size, &len);
	if (!svg)
		return 0;
	doc = xmlReadMemory(svg, (int)len, "fuzz.svg", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
	    XML_PARSE_HUGE);
	FUZZ_CHECK(doc != NULL, "the SVG is not well-formed XML");
	walk(xmlDocGetRootElement(doc), 0);
	xmlFreeDoc(doc);
	again = render(&opt, data, size, &len2);
	FUZZ_CHECK(again && len2 == len && memcmp(svg, again, len) == 0,
	    "the same input gave another SVG");
	free(again);
	free(svg);
	return 0;
}
