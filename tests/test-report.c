/*
 * Unit tests for the significance tests, the gate expressions and the
 * address stripping behind folddiff and foldfilter: prints "ok NAME" or
 * "FAIL NAME" per check. Expected p-values were computed independently
 * by summing the exact hypergeometric and binomial probabilities.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/filter.h"
#include "libfold/report.h"
#include "libfold/stats.h"

static int failed;

static void
check(int cond, const char *name, int line)
{
	printf("%s %s (line %d)\n", cond ? "ok" : "FAIL", name, line);
	if (!cond)
		failed = 1;
}
#define CHECK(c, name) check((c), (name), __LINE__)

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

int
main(void)
{
	test_share();
	test_rate();
	test_bh();
	test_gate();
	test_strip();
	return failed;
}
