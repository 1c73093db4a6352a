/*
 * Unit tests for the significance tests, the gate expressions, the
 * address stripping behind folddiff and foldfilter, how the reports
 * show names (fold_vis, fold_name_write), and the table writer in each
 * format (fold_format_parse, fold_table_write): prints "ok NAME" or
 * "FAIL NAME" per check. Expected p-values were computed independently
 * by summing the exact hypergeometric and binomial probabilities.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/filter.h"
#include "libfold/report.h"
#include "libfold/stats.h"
#include "formats/table.h"
#include "tests/check.h"

static int
near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void
test_share(void)
{
	/* Fisher's exact test, two-sided */
	CHECK(near(fold_share_p(3, 10, 8, 12), 0.19838056680162036, 1e-9),
	    "fisher small table");
	CHECK(near(fold_share_p(2048, 11211, 2500, 11653),
	    1.6030242314219288e-09, 1e-6), "fisher capture-sized table");
	CHECK(near(fold_share_p(1, 1000, 0, 1000), 1, 1e-9), "fisher one sample");
	CHECK(fold_share_p(5, 100, 5, 100) == 1, "fisher equal shares");
	CHECK(fold_share_p(0, 100, 0, 100) == 1, "fisher absent");
	CHECK(fold_share_p(100, 100, 50, 50) == 1, "fisher everything");
	CHECK(fold_share_p(3, 0, 3, 10) == 1, "fisher empty profile");
	/* beyond FOLD_EXACT_MAX outcomes: the normal approximation */
	CHECK(near(fold_share_p(50000, 1e6, 52000, 1e6),
	    1.3162163412752732e-10, 0.02), "fisher normal approximation");
	/* symmetric in the two profiles */
	CHECK(near(fold_share_p(40, 1000, 70, 1000),
	    fold_share_p(70, 1000, 40, 1000), 1e-12), "fisher symmetric");
	/* p-values stay within [0, 1] for extreme tables */
	double p = fold_share_p(0, 1e7, 1e6, 1e7);
	CHECK(p >= 0 && p <= 1e-100, "fisher extreme");
}

static void
test_rate(void)
{
	CHECK(near(fold_rate_p(10, 1, 20, 1), 0.09873714670538988, 1e-9),
	    "binomial rates");
	CHECK(near(fold_rate_p(50000, 1, 52000, 1), 3.8669187459590574e-10,
	    0.02), "binomial normal approximation");
	CHECK(fold_rate_p(0, 1, 0, 2) == 1, "binomial absent");
	/* twice the work, twice the samples: no change */
	CHECK(fold_rate_p(100, 1, 200, 2) > 0.9, "binomial per unit");
}

static void
test_bh(void)
{
	double p[5] = { 0.01, 0.04, 0.03, 0.005, 0.5 }, q[5];
	double want[5] = { 0.025, 0.05, 0.05, 0.025, 0.5 };
	int i, ok = 1;

	fold_bh(p, q, 5);
	for (i = 0; i < 5; i++)
		ok &= near(q[i], want[i], 1e-12);
	CHECK(ok, "benjamini-hochberg");
	fold_bh(p, p, 5);
	CHECK(near(p[1], 0.05, 1e-12), "benjamini-hochberg in place");
}

static void
test_gate(void)
{
	struct fold_gate g;

	CHECK(fold_gate_parse("self>+1pp", 0, &g) == 0 &&
	    g.metric == FOLD_METRIC_SELF && g.op == '>' && g.value == 1 &&
	    g.unit == FOLD_UNIT_PP, "gate self pp");
	CHECK(fold_gate_parse(" total > 10 % ", 0, &g) == 0 &&
	    g.metric == FOLD_METRIC_TOTAL && g.value == 10 &&
	    g.unit == FOLD_UNIT_REL && strcmp(g.text, "total>10%") == 0,
	    "gate total relative, blanks");
	CHECK(fold_gate_parse("self<-2.5pp", 0, &g) == 0 && g.op == '<' &&
	    g.value == -2.5, "gate decrease");
	CHECK(fold_gate_parse("self>0.5", 1, &g) == 0 &&
	    g.unit == FOLD_UNIT_ABS, "gate per unit");
	CHECK(fold_gate_parse("self>0.5", 0, &g) < 0, "gate needs a unit");
	CHECK(fold_gate_parse("self>1pp", 1, &g) < 0, "gate pp per unit");
	CHECK(fold_gate_parse("self>=1pp", 0, &g) < 0, "gate >=");
	CHECK(fold_gate_parse("self>1e3pp", 0, &g) < 0, "gate exponent");
	CHECK(fold_gate_parse("self>nan", 0, &g) < 0, "gate nan");
	CHECK(fold_gate_parse("cpu>1pp", 0, &g) < 0 &&
	    strstr(fold_err(), "self or total"), "gate metric");
	CHECK(fold_gate_parse("self>", 0, &g) < 0, "gate no number");
	CHECK(fold_gate_parse("self>1pp2", 0, &g) < 0, "gate trailing");
}

static void
test_strip(void)
{
	char out[64];
	const char *in = "f+0x1a;0x;0xg;0X12;x0x7fAB 0x0";
	size_t n = fold_strip_hex(in, strlen(in), out);

	CHECK(n == strlen("f+0x...;0x;0xg;0X12;x0x... 0x...") &&
	    memcmp(out, "f+0x...;0x;0xg;0X12;x0x... 0x...", n) == 0,
	    "strip hex");
	CHECK(fold_has_hex("a0x1", 4) && !fold_has_hex("a0x", 3) &&
	    !fold_has_hex("0x...", 5), "has hex");
	n = fold_strip_hex("0x1", 3, out);
	CHECK(n == 5 && n <= FOLD_STRIP_HEX_MAX(3), "strip hex growth bound");
}

/* fold_vis of s[0..n) (n as given: NULs are bytes) equals want. */
static int
vis_is(const char *s, size_t n, const char *want)
{
	char buf[256];
	size_t used, len = fold_vis(buf, sizeof buf, s, n, &used);

	return used == n && len == strlen(want) && strcmp(buf, want) == 0;
}

static void
test_vis(void)
{
	char buf[16], *d;
	size_t used, len;

	CHECK(vis_is("plain name::f(int)", 18, "plain name::f(int)"),
	    "vis plain");
	CHECK(vis_is("nul\0byte", 8, "nul\\x00byte"), "vis NUL");
	CHECK(vis_is("\033[2K\t\n\r\177", 8, "\\x1b[2K\\x09\\x0a\\x0d\\x7f"),
	    "vis C0 and DEL");
	CHECK(vis_is("c1\xc2\x9b", 4, "c1\\xc2\\x9b"), "vis C1");
	CHECK(vis_is("\xc2\xa0" "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80", 16,
	    "\xc2\xa0" "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80"),
	    "vis UTF-8 kept");
	CHECK(vis_is("a\xe2\x80\xae" "b\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9",
	    14, "a\\xe2\\x80\\xaeb\\xe2\\x80\\xaa"
	    "\\xe2\\x81\\xa6\\xe2\\x81\\xa9"),
	    "vis bidi controls");
	CHECK(vis_is("\xe2\x80\xa9\xe2\x80\xaf", 6, "\xe2\x80\xa9\xe2\x80\xaf"),
	    "vis around the bidi range");
	CHECK(vis_is("\xff\xc0\xaf\xe0\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80",
	    13, "\\xff\\xc0\\xaf\\xe0\\x80\\xaf\\xed\\xa0\\x80"
	    "\\xf4\\x90\\x80\\x80"),
	    "vis invalid, overlong, surrogate, past U+10FFFF");
	CHECK(vis_is("cut\xe6\x97", 5, "cut\\xe6\\x97"), "vis cut sequence");
	CHECK(vis_is("\xef\xbf\xbe\xef\xbf\xbd", 6,
	    "\\xef\\xbf\\xbe\xef\xbf\xbd"),
	    "vis noncharacter");
	CHECK(vis_is("C:\\dir\\xfile\\", 13, "C:\\dir\\x5cxfile\\"),
	    "vis backslash before x");
	/* the buffer bounds: never half an escape or a character */
	len = fold_vis(buf, 7, "ab\033cd", 5, &used);
	CHECK(len == 6 && used == 3 && strcmp(buf, "ab\\x1b") == 0,
	    "vis bounded at an escape");
	len = fold_vis(buf, 6, "ab\033cd", 5, &used);
	CHECK(len == 2 && used == 2 && strcmp(buf, "ab") == 0,
	    "vis no half escape");
	len = fold_vis(buf, 5, "abc\xc3\xa9", 5, &used);
	CHECK(len == 3 && used == 3 && strcmp(buf, "abc") == 0,
	    "vis no half character");
	len = fold_vis(buf, 1, "abc", 3, &used);
	CHECK(len == 0 && used == 0 && buf[0] == '\0', "vis size 1");
	d = fold_visdup("\0\0\0", 3, &len);
	CHECK(len == 12 && len + 1 <= FOLD_VIS_MAX(3) &&
	    strcmp(d, "\\x00\\x00\\x00") == 0, "visdup worst case");
	free(d);
}

/* A file to write to, read back by took(). */
static struct fold_out *
open_tmp(FILE **tmp)
{
	*tmp = tmpfile();
	return *tmp ? fold_out_new(dup(fileno(*tmp)), "tmp") : NULL;
}

/* What was written to out (closed here) equals want. */
static int
took(FILE *tmp, struct fold_out *out, const char *want)
{
	char buf[1024];
	size_t len;

	if (!tmp)
		return 0;
	if (fold_out_close(out) < 0) {
		fclose(tmp);
		return 0;
	}
	rewind(tmp);
	len = fread(buf, 1, sizeof buf - 1, tmp);
	buf[len] = '\0';
	fclose(tmp);
	if (strcmp(buf, want) != 0)
		printf("# got:\n%s# want:\n%s", buf, want);
	return strcmp(buf, want) == 0;
}

/* fold_name_write of s[0..n) in format f equals want. */
static int
name_is(const char *s, size_t n, enum fold_format f, const char *want)
{
	FILE *tmp;
	struct fold_out *out = open_tmp(&tmp);

	if (!out)
		return 0;
	fold_name_write(out, s, n, f);
	return took(tmp, out, want);
}

static void
test_name(void)
{
	enum fold_format md = FOLD_FORMAT_MARKDOWN;

	CHECK(name_is("a\tb", 3, FOLD_FORMAT_TSV, "a\\x09b"), "name tsv tab");
	CHECK(name_is("a\0b", 3, FOLD_FORMAT_TEXT, "a\\x00b"), "name text NUL");
	CHECK(name_is("f", 1, md, "`f`"), "name markdown");
	CHECK(name_is("a|b", 3, md, "`a\\|b`"), "name markdown pipe");
	CHECK(name_is("<img src=x onerror=alert(1)>", 28, md,
	    "`<img src=x onerror=alert(1)>`"), "name markdown html");
	CHECK(name_is("a``b`c", 6, md, "```a``b`c```"),
	    "name markdown longer fence");
	CHECK(name_is("`a", 2, md, "`` `a ``"),
	    "name markdown leading backtick");
	CHECK(name_is(" a ", 3, md, "`  a  `"), "name markdown kept spaces");
	CHECK(name_is(" a", 2, md, "` a`"), "name markdown one space");
	CHECK(name_is("  ", 2, md, "`  `"), "name markdown only spaces");
	CHECK(name_is("", 0, md, ""), "name markdown empty");
	CHECK(name_is("a\0\"\\\x1b\xe2\x80\xae\xff\xc3\xa9", 11,
	    FOLD_FORMAT_JSON, "\"a\\u0000\\\"\\\\\\u001b\\u202e\\ufffd\xc3\xa9\""),
	    "name json exact");
	CHECK(name_is("<a&b>\t", 6, FOLD_FORMAT_HTML, "&lt;a&amp;b&gt;\\x09"),
	    "name html");
}

static void
test_format(void)
{
	enum fold_format f = FOLD_FORMAT_TEXT;

	CHECK(fold_format_parse("md", FOLD_TOP_FORMATS, &f) == 0 &&
	    f == FOLD_FORMAT_MARKDOWN, "format md");
	CHECK(fold_format_parse("json", FOLD_COST_FORMATS, &f) == 0 &&
	    f == FOLD_FORMAT_JSON, "format json");
	CHECK(fold_format_parse("json", FOLD_TOP_FORMATS, &f) < 0 &&
	    strcmp(fold_err(), "unknown format 'json' (text, markdown or "
	    "tsv)") == 0, "format not in the set");
	CHECK(fold_format_parse("xml", FOLD_COST_FORMATS, &f) < 0 &&
	    strcmp(fold_err(), "unknown format 'xml' (text, markdown, tsv "
	    "or json)") == 0, "format names the set");
}

/* A small table: a number, a q-value with its mark, a name. */
static const char *const heads[] = { "count", "q", "name" };

static void
fill(void *arg, size_t i, struct fold_row *r)
{
	static const char *const name[] = { "a|b", "x\ty", "tot" };

	fold_row_set(r, 0, FOLD_CELL_NUMBER, "%zu", (i + 1) * 1000);
	if (i < 2)
		fold_row_set(r, 1, FOLD_CELL_NUMBER, "%s", i ? "0.5" : "1e-07*");
	if (i == 0)
		r->cells[1].cls = "up";
	r->cls = i == 1 ? "sig" : NULL;
	fold_row_text(r, 2, i < 2 ? FOLD_CELL_NAME : FOLD_CELL_TEXT, name[i],
	    strlen(name[i]));
}

/* fold_table_write of the small table in format f equals want. */
static int
table_is(enum fold_format f, const char *want)
{
	struct fold_table t = FOLD_TABLE_INIT;
	FILE *tmp;
	struct fold_out *out = open_tmp(&tmp);

	if (!out)
		return 0;
	t.ncols = 3;
	t.heads = heads;
	t.nrows = 3;
	t.fill = fill;
	t.total = 1;
	t.footnote = "# a note";
	t.id = "t";
	fold_table_prop(&t, "by", FOLD_CELL_TEXT, "%s", "x\"y");
	fold_table_prop(&t, "n", FOLD_CELL_NUMBER, "%d", 3);
	fold_table_write(out, &t, f);
	fold_table_release(&t);
	return took(tmp, out, want);
}

static void
test_table(void)
{
	CHECK(table_is(FOLD_FORMAT_TEXT,
	    "count       q  name\n"
	    " 1000  1e-07*  a|b\n"
	    " 2000     0.5  x\\x09y\n"
	    "# a note\n"
	    " 3000          tot\n"), "table text");
	CHECK(table_is(FOLD_FORMAT_MARKDOWN,
	    "| count | q | name |\n"
	    "| ---: | ---: | :--- |\n"
	    "| 1000 | 1e-07\\* | `a\\|b` |\n"
	    "| 2000 | 0.5 | `x\\x09y` |\n"
	    "| 3000 |  | tot |\n"), "table markdown");
	CHECK(table_is(FOLD_FORMAT_TSV,
	    "count\tq\tname\n"
	    "1000\t1e-07*\ta|b\n"
	    "2000\t0.5\tx\\x09y\n"
	    "3000\t\ttot\n"), "table tsv");
	CHECK(table_is(FOLD_FORMAT_JSON,
	    "{\"by\": \"x\\\"y\", \"n\": 3,\n"
	    " \"rows\": [\n"
	    "  {\"count\": 1000, \"q\": 1e-07*, \"name\": \"a|b\"},\n"
	    "  {\"count\": 2000, \"q\": 0.5, \"name\": \"x\\u0009y\"}],\n"
	    " \"total\": {\"count\": 3000, \"name\": \"tot\"}}\n"),
	    "table json");
	CHECK(table_is(FOLD_FORMAT_HTML,
	    "<table id=\"t\">\n<thead><tr><th>name</th><th>count</th>"
	    "<th>q</th></tr></thead>\n<tbody>\n"
	    "<tr><td class=\"fn\">a|b</td><td>1000</td>"
	    "<td class=\"up\">1e-07*</td></tr>\n"
	    "<tr class=\"sig\"><td class=\"fn\">x\\x09y</td><td>2000</td>"
	    "<td>0.5</td></tr>\n"
	    "<tr><td class=\"fn\">tot</td><td>3000</td><td></td></tr>\n"
	    "</tbody>\n</table>"), "table html");
}

int
main(void)
{
	test_share();
	test_rate();
	test_bh();
	test_gate();
	test_strip();
	test_vis();
	test_name();
	test_format();
	test_table();
	return failed;
}
