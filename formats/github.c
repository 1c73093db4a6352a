#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/diag.h"
#include "formats/github.h"
#include "formats/xml.h"

/*
 * Writes s as the runner reads it back: '%', CR and LF always escaped,
 * ':' and ',' too in a property (a title). Names were shown by fold_vis
 * before (control and bidirectional characters, bad UTF-8 as "\xHH"), so
 * a terminal showing the log is safe too; fold_xml_clean covers the rest.
 */
static void
put(struct fold_out *out, const char *s, int property)
{
	char *t = fold_xml_clean(s, strlen(s)), *p;

	for (p = t; *p; p++) {
		if (*p == '%')
			fold_out_puts(out, "%25");
		else if (*p == '\r')
			fold_out_puts(out, "%0D");
		else if (*p == '\n')
			fold_out_puts(out, "%0A");
		else if (property && *p == ':')
			fold_out_puts(out, "%3A");
		else if (property && *p == ',')
			fold_out_puts(out, "%2C");
		else
			fold_out_putc(out, *p);
	}
	free(t);
}

static void
hit(void *arg, const struct fold_gatehit *h)
{
	struct fold_out *out = arg;
	char *name = fold_visdup(h->name, h->namelen, NULL);

	fold_out_puts(out, "::error title=");
	put(out, "Regression: ", 1);
	put(out, name, 1);
	fold_out_puts(out, "::");
	put(out, h->line, 0);
	fold_out_putc(out, '\n');
	free(name);
}

void
fold_github_report(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_gate *gates, size_t ngates)
{
	size_t n, i, nempty = 0;
	const char *e;
	char buf[64];

	for (; ngates && (e = fold_diffreport_empty(r, nempty)); nempty++) {
		fold_out_puts(out, "::error title=");
		put(out, "Empty profile", 1);
		fold_out_puts(out, "::");
		put(out, e, 0);
		fold_out_putc(out, '\n');
	}
	n = fold_diffreport_gate(r, gates, ngates, hit, out);
	fold_out_puts(out, "::notice title=");
	put(out, "Profile comparison", 1);
	fold_out_puts(out, "::");
	if (ngates == 0) {
		put(out, "no gate given (--fail-if)", 0);
	} else {
		snprintf(buf, sizeof buf, "%s: %zu function%s cross%s ",
		    n ? "fail" : "pass", n, n == 1 ? "" : "s",
		    n == 1 ? "es" : "");
		if (nempty)
			put(out, "fail: a profile has no samples; gate ", 0);
		else
			put(out, n ? buf : "pass: no significant change "
			    "crosses ", 0);
		for (i = 0; i < ngates; i++) {
			if (i)
				put(out, ", ", 0);
			put(out, gates[i].text, 0);
		}
	}
	put(out, "; ", 0);
	put(out, fold_diffreport_note(r, 0), 0);
	fold_out_putc(out, '\n');
}
