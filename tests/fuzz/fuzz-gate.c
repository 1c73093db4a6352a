/*
 * folddiff's --fail-if expressions and the report they judge. The input
 * is up to four expressions, one a line up to the first empty line, then
 * a differential profile ("stack before after"); the first byte picks
 * share or units mode and the report format. Properties: a parsed gate
 * parses again from its own text to the same gate; the report and the
 * gate's lines come out the same twice; each line the gate prints is one
 * line and begins with the function's name as fold_vis shows it; no
 * name puts a control or bidirectional character in the report or the
 * lines (a terminal would act on it), nor a tab in a TSV row (a column).
 */
#include "tests/fuzz/fuzz.h"

#include "libfold/report.h"
#include "formats/table.h"

#define MAXGATES 4

/*
 * The offset of the first byte of s[0..n) that a terminal acts on (a
 * control other than newline and tab, DEL, a C1 control, a bidirectional
 * override or isolate), or n.
 */
static size_t
unsafe(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i;

	for (i = 0; i < n; i++) {
		if ((s[i] < 0x20 && s[i] != '\n' && s[i] != '\t') ||
		    s[i] == 0x7f)
			return i;
		if (s[i] == 0xc2 && i + 1 < n && s[i + 1] >= 0x80 &&
		    s[i + 1] <= 0x9f)
			return i;
		if (s[i] == 0xe2 && i + 2 < n &&
		    ((s[i + 1] == 0x80 && s[i + 2] >= 0xaa && s[i + 2] <= 0xae) ||
		    (s[i + 1] == 0x81 && s[i + 2] >= 0xa6 && s[i + 2] <= 0xa9)))
			return i;
	}
	return n;
}

static void
hit(void *arg, const struct fold_gatehit *h)
{
	struct fold_out *out = arg;
	size_t i, vlen, n = strlen(h->line);
	char *v = fold_visdup(h->name, h->namelen, &vlen);

	FUZZ_CHECK(strchr(h->line, '\n') == NULL && strchr(h->line, '\t') ==
	    NULL, "a gate line holds a newline or a tab");
	FUZZ_CHECK(unsafe(h->line, n) == n,
	    "a gate line holds a control byte at %zu", unsafe(h->line, n));
	FUZZ_CHECK(n > vlen + 1 && memcmp(h->line, v, vlen) == 0 &&
	    h->line[vlen] == ':', "a gate line does not begin with its name");
	free(v);
	FUZZ_CHECK(h->ngates > 0, "a hit crosses no gate");
	for (i = 1; i < h->ngates; i++)
		FUZZ_CHECK(h->gates[i - 1] < h->gates[i],
		    "gates crossed not ascending");
	fold_out_puts(out, h->line);
	fold_out_putc(out, '\n');
}

static char *
judge(const struct fold_diffreport *rep, const struct fold_gate *g,
    size_t ng, enum fold_format f, size_t top, size_t *len)
{
	struct fold_out *out = fuzz_out_open();
	int tsv = f == FOLD_FORMAT_TSV;
	const char *p, *e;
	size_t tabs;
	char *s;

	fold_diff_table_write(out, rep, f, top);
	fold_diffreport_gate(rep, g, ng, hit, out);
	s = fuzz_out_take(out, len);
	FUZZ_CHECK(s != NULL, "report: %s", fold_err());
	FUZZ_CHECK(unsafe(s, *len) == *len, "the report holds a control byte "
	    "at %zu", unsafe(s, *len));
	/* TSV: every row of the table has the header's 15 columns */
	for (p = s; tsv && p < s + *len && *p != '\n'; p = e + 1) {
		e = memchr(p, '\n', s + *len - p);
		FUZZ_CHECK(e != NULL, "a TSV row without its newline");
		for (tabs = 0; p < e; p++)
			tabs += *p == '\t';
		FUZZ_CHECK(tabs == 14 || tabs == 0,
		    "a TSV row with %zu tabs", tabs);
	}
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fold_diffopt opt = FOLD_DIFFOPT_INIT;
	enum fold_format format;
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_gate g[MAXGATES], again;
	struct fold_diffreport *rep;
	struct fold_intern *fr;
	struct fold_stacks *st;
	struct fold_in *in;
	const uint8_t *p = data, *e = data + size, *nl;
	unsigned flags = size ? data[0] : 0;
	size_t ng = 0, len, len2, top;
	char line[128], *s1, *s2;
	int units;

	if (size)
		p++;
	units = flags & 1;
	if (units) {
		opt.units[0] = 1000;
		opt.units[1] = 1 + (flags >> 4);
	}
	format = (flags >> 1 & 3) % 3;	/* text, markdown or tsv */
	top = flags >> 3 & 1 ? 5 : 0;
	while (p < e && *p != '\n' && ng < MAXGATES) {
		nl = memchr(p, '\n', e - p);
		if (!nl)
			nl = e;
		len = nl - p;
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl < e ? nl + 1 : e;
		if (fold_gate_parse(line, units, &g[ng]) < 0)
			continue;
		FUZZ_CHECK(fold_gate_parse(g[ng].text, units, &again) == 0,
		    "gate '%s' does not parse again: %s", g[ng].text,
		    fold_err());
		FUZZ_CHECK(again.metric == g[ng].metric &&
		    again.op == g[ng].op && again.unit == g[ng].unit &&
		    (again.value == g[ng].value ||
		    (again.value != again.value && g[ng].value != g[ng].value)),
		    "gate '%s' parses again as another gate", g[ng].text);
		ng++;
	}
	if (p < e && *p == '\n')
		p++;
	fr = fold_intern_new();
	st = fold_stacks_new(fr, 2);
	in = fuzz_in(p, e - p);
	diag.limit = 0;
	if (fold_read(in, st, NULL, &diag) >= 0 &&
	    (rep = fold_diffreport_new(st, &opt)) != NULL) {
		s1 = judge(rep, g, ng, format, top, &len);
		s2 = judge(rep, g, ng, format, top, &len2);
		FUZZ_CHECK(len == len2 && memcmp(s1, s2, len) == 0,
		    "the same report came out different");
		free(s1);
		free(s2);
		fold_diffreport_free(rep);
	}
	fold_in_close(in);
	fold_stacks_free(st);
	fold_intern_free(fr);
	return 0;
}
