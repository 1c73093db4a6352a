/*
 * The unit tests' check: "ok NAME (line N)" or "FAIL NAME (line N)" on
 * standard output, counted by tests/run.sh; a test's main returns failed.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>

static int failed;

static void
check(int cond, const char *name, int line)
{
	printf("%s %s (line %d)\n", cond ? "ok" : "FAIL", name, line);
	if (!cond)
		failed = 1;
}
#define CHECK(c, name) check((c), (name), __LINE__)

#endif
