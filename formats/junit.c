#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "formats/junit.h"
#include "formats/xml.h"
#include "formats/xmllib.h"

/* A function that failed, kept for its testcase. */
struct failed {
	char *name, *line;
	size_t *gates, ngates;
};

struct hits {
	struct failed *f;
	size_t n, cap;
};

static void
hit(void *arg, const struct fold_gatehit *h)
{
	struct hits *hs = arg;
	struct failed *f;
	size_t vlen;
	char *v;

	hs->f = fold_grow(hs->f, &hs->cap, hs->n + 1, sizeof *hs->f);
	f = &hs->f[hs->n++];
	/* shown as in the report line, then valid XML (U+FFFE, U+FFFF) */
	v = fold_visdup(h->name, h->namelen, &vlen);
	f->name = fold_xml_clean(v, vlen);
	free(v);
	f->line = fold_xml_clean(h->line, strlen(h->line));
	f->gates = fold_reallocarray(NULL, h->ngates ? h->ngates : 1,
	    sizeof *f->gates);
	memcpy(f->gates, h->gates, h->ngates * sizeof *f->gates);
	f->ngates = h->ngates;
}

#define X(s) ((const xmlChar *)(s))

/* How many functions cross gate j. */
static size_t
crossing(const struct hits *hs, size_t j)
{
	size_t i, k, n = 0;

	for (i = 0; i < hs->n; i++)
		for (k = 0; k < hs->f[i].ngates; k++)
			n += hs->f[i].gates[k] == j;
	return n;
}

/* The functions crossing gate j, one report line each. */
static int
gate_case(const struct fold_libxml *x, xmlTextWriterPtr w,
    const struct fold_gate *g, size_t j, const struct hits *hs)
{
	size_t i, k, n = crossing(hs, j);
	int rc = 0;

	rc |= x->TextWriterStartElement(w, X("testcase"));
	rc |= x->TextWriterWriteAttribute(w, X("classname"),
	    X("folddiff.gate"));
	rc |= x->TextWriterWriteAttribute(w, X("name"), X(g->text));
	rc |= x->TextWriterWriteAttribute(w, X("time"), X("0"));
	if (n) {
		rc |= x->TextWriterStartElement(w, X("failure"));
		rc |= x->TextWriterWriteFormatAttribute(w, X("message"),
		    "%zu function%s cross%s %s", n, n == 1 ? "" : "s",
		    n == 1 ? "es" : "", g->text);
		rc |= x->TextWriterWriteAttribute(w, X("type"),
		    X("regression"));
		for (i = 0; i < hs->n; i++)
			for (k = 0; k < hs->f[i].ngates; k++)
				if (hs->f[i].gates[k] == j) {
					rc |= x->TextWriterWriteString(w,
					    X(hs->f[i].line));
					rc |= x->TextWriterWriteString(w,
					    X("\n"));
				}
		rc |= x->TextWriterEndElement(w);
	}
	rc |= x->TextWriterEndElement(w);
	return rc;
}

static int
function_case(const struct fold_libxml *x, xmlTextWriterPtr w,
    const struct failed *f)
{
	int rc = 0;

	rc |= x->TextWriterStartElement(w, X("testcase"));
	rc |= x->TextWriterWriteAttribute(w, X("classname"),
	    X("folddiff.function"));
	rc |= x->TextWriterWriteAttribute(w, X("name"), X(f->name));
	rc |= x->TextWriterWriteAttribute(w, X("time"), X("0"));
	rc |= x->TextWriterStartElement(w, X("failure"));
	rc |= x->TextWriterWriteAttribute(w, X("message"), X(f->line));
	rc |= x->TextWriterWriteAttribute(w, X("type"), X("regression"));
	rc |= x->TextWriterWriteString(w, X(f->line));
	rc |= x->TextWriterEndElement(w);
	rc |= x->TextWriterEndElement(w);
	return rc;
}

/* An input without samples: the gate cannot pass on it. */
static int
empty_case(const struct fold_libxml *x, xmlTextWriterPtr w,
    const char *line)
{
	char *t = fold_xml_clean(line, strlen(line));
	int rc = 0;

	rc |= x->TextWriterStartElement(w, X("testcase"));
	rc |= x->TextWriterWriteAttribute(w, X("classname"),
	    X("folddiff.profile"));
	rc |= x->TextWriterWriteAttribute(w, X("name"), X("samples"));
	rc |= x->TextWriterWriteAttribute(w, X("time"), X("0"));
	rc |= x->TextWriterStartElement(w, X("failure"));
	rc |= x->TextWriterWriteAttribute(w, X("message"), X(t));
	rc |= x->TextWriterWriteAttribute(w, X("type"), X("empty profile"));
	rc |= x->TextWriterWriteString(w, X(t));
	rc |= x->TextWriterEndElement(w);
	rc |= x->TextWriterEndElement(w);
	free(t);
	return rc;
}

/*
 * The xmlwriter calls return a byte count or -1; rc gathers them with |,
 * so that any failure leaves it negative (-1 has every bit set).
 */
static int
write_doc(const struct fold_libxml *x, xmlTextWriterPtr w,
    const struct fold_diffreport *r, const struct fold_gate *gates,
    size_t ngates, const struct hits *hs)
{
	size_t i, nempty = 0, tests, failures = hs->n;
	const char *note;
	int rc = 0;

	/* without a gate, an empty profile is a note, not a failure */
	while (ngates && fold_diffreport_empty(r, nempty))
		nempty++;
	tests = ngates + hs->n + nempty;
	failures += nempty;
	for (i = 0; i < ngates; i++)
		failures += crossing(hs, i) > 0;
	x->TextWriterSetIndent(w, 1);
	x->TextWriterSetIndentString(w, X("  "));
	rc |= x->TextWriterStartDocument(w, "1.0", "UTF-8", NULL);
	rc |= x->TextWriterStartElement(w, X("testsuites"));
	rc |= x->TextWriterWriteAttribute(w, X("name"), X("folddiff"));
	rc |= x->TextWriterWriteFormatAttribute(w, X("tests"), "%zu", tests);
	rc |= x->TextWriterWriteFormatAttribute(w, X("failures"), "%zu",
	    failures);
	rc |= x->TextWriterWriteAttribute(w, X("errors"), X("0"));
	rc |= x->TextWriterStartElement(w, X("testsuite"));
	rc |= x->TextWriterWriteAttribute(w, X("name"),
	    X("profile regression gate"));
	rc |= x->TextWriterWriteFormatAttribute(w, X("tests"), "%zu", tests);
	rc |= x->TextWriterWriteFormatAttribute(w, X("failures"), "%zu",
	    failures);
	rc |= x->TextWriterWriteAttribute(w, X("errors"), X("0"));
	rc |= x->TextWriterWriteAttribute(w, X("skipped"), X("0"));
	rc |= x->TextWriterWriteAttribute(w, X("time"), X("0"));
	rc |= x->TextWriterStartElement(w, X("properties"));
	for (i = 0; (note = fold_diffreport_note(r, i)); i++) {
		char *t = fold_xml_clean(note, strlen(note));
		rc |= x->TextWriterStartElement(w, X("property"));
		rc |= x->TextWriterWriteAttribute(w, X("name"), X("note"));
		rc |= x->TextWriterWriteAttribute(w, X("value"), X(t));
		rc |= x->TextWriterEndElement(w);
		free(t);
	}
	rc |= x->TextWriterEndElement(w);
	for (i = 0; i < nempty; i++)
		rc |= empty_case(x, w, fold_diffreport_empty(r, i));
	for (i = 0; i < ngates; i++)
		rc |= gate_case(x, w, &gates[i], i, hs);
	for (i = 0; i < hs->n; i++)
		rc |= function_case(x, w, &hs->f[i]);
	rc |= x->TextWriterEndElement(w);
	rc |= x->TextWriterEndElement(w);
	rc |= x->TextWriterEndDocument(w);
	return rc;
}

int
fold_junit_report(struct fold_out *out, const struct fold_diffreport *r,
    const struct fold_gate *gates, size_t ngates)
{
	struct hits hs = { NULL, 0, 0 };
	const char *why;
	const struct fold_libxml *x = fold_libxml(&why);
	xmlBufferPtr buf = NULL;
	xmlTextWriterPtr w = NULL;
	size_t i;
	int rc = -1;

	if (!x)
		return fold_seterr("cannot write JUnit XML without libxml2: "
		    "%s", why);
	if ((buf = x->BufferCreate()) != NULL)
		w = x->NewTextWriterMemory(buf, 0);
	if (!w) {
		fold_seterr("libxml2: cannot start an XML writer");
		goto done;
	}
	fold_diffreport_gate(r, gates, ngates, hit, &hs);
	if (write_doc(x, w, r, gates, ngates, &hs) < 0) {
		fold_seterr("libxml2: cannot write the JUnit report");
		goto done;
	}
	x->FreeTextWriter(w);	/* flushes into buf */
	w = NULL;
	fold_out_write(out, x->BufferContent(buf), x->BufferLength(buf));
	rc = 0;
done:
	if (w)
		x->FreeTextWriter(w);
	if (buf)
		x->BufferFree(buf);
	for (i = 0; i < hs.n; i++) {
		free(hs.f[i].name);
		free(hs.f[i].line);
		free(hs.f[i].gates);
	}
	free(hs.f);
	return rc;
}
