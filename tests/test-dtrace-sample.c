/*
 * Unit tests of the DTrace and sample formats: format detection on every
 * input of testdata (each claims its own and no other tool's), the Rust
 * name fix, and the reader state kept between inputs. Prints "ok NAME" or
 * "FAIL NAME" per check; run from the top of the tree.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/diag.h"
#include "libfold/err.h"
#include "libfold/folded.h"
#include "libfold/input.h"
#include "libfold/intern.h"
#include "libfold/stacks.h"
#include "formats/dtrace.h"
#include "formats/rustname.h"
#include "formats/sample.h"
#include "tests/check.h"

static int
input(const char *name)
{
	static const char *const skip[] = { ".cmd", ".out", ".err", ".rc",
	    ".c", ".cc", ".sh", "README" };
	size_t i, n = strlen(name), k;

	if (name[0] == '.')
		return 0;
	for (i = 0; i < sizeof skip / sizeof skip[0]; i++) {
		k = strlen(skip[i]);
		if (n >= k && strcmp(name + n - k, skip[i]) == 0)
			return 0;
	}
	return 1;
}

/* Each input of testdata is claimed by its own format only. */
static void
test_detect(void)
{
	DIR *top = opendir("testdata"), *d;
	struct dirent *t, *e;
	char path[4096], name[4400];
	const char *buf;
	size_t len;
	struct fold_in *in;
	int dt, sa, wdt, wsa, bad = 0, n = 0;

	if (!top) {
		CHECK(0, "detect: testdata found");
		return;
	}
	while ((t = readdir(top)) != NULL) {
		if (t->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "testdata/%s", t->d_name);
		if (!(d = opendir(path)))
			continue;
		while ((e = readdir(d)) != NULL) {
			if (!input(e->d_name))
				continue;
			snprintf(name, sizeof name, "%s/%s", path, e->d_name);
			if (!(in = fold_in_open(name)))
				continue;
			if (fold_in_peek(in, 65536, &buf, &len) < 0) {
				fold_in_close(in);
				continue;
			}
			dt = dtrace_detect(buf, len, len < 65536);
			sa = sample_detect(buf, len, len < 65536);
			fold_in_close(in);
			wdt = strcmp(t->d_name, "stackcollapse-dtrace") == 0 ?
			    2 : 0;
			wsa = strcmp(t->d_name, "stackcollapse-sample") == 0 ?
			    2 : 0;
			if (dt != wdt || sa != wsa) {
				printf("# %s: dtrace %d (want %d), sample %d "
				    "(want %d)\n", name, dt, wdt, sa, wsa);
				bad = 1;
			}
			n++;
		}
		closedir(d);
	}
	closedir(top);
	CHECK(!bad && n > 20, "detect: each testdata input by its own format");

	CHECK(dtrace_detect("\n\n  a`b\n", 8, 0) == 1,
	    "detect: dtrace cut short could be");
	CHECK(dtrace_detect("a;b`c 12\n", 9, 1) == 0,
	    "detect: folded stacks are not dtrace");
	CHECK(sample_detect("Call graph:\n", 12, 0) == 1,
	    "detect: sample cut short could be");
}

static void
test_rustname(void)
{
	static const struct {
		const char *in, *out;
	} t[] = {
		{ "std::sys::unix::fs::File::open::hb90e1c1c787080f0",
		  "std::sys::unix::fs::File::open" },
		{ "_$LT$$RF$std..fs..File$u20$as$u20$std..io..Read$GT$::read::h5d84059cf335c8e6",
		  "<&std::fs::File as std::io::Read>::read" },
		{ "rg::search_parallel::_$u7b$$u7b$closure$u7d$$u7d$::h6e849b55a66fcd85",
		  "rg::search_parallel::_{{closure}}" },
		{ "a$XX$b..c::h0123456789abcdef", "a$XX$b..c" },
		{ "x.y::h0123456789abcdef", "x.y" },
	};
	char out[256];
	size_t i, k;
	int ok = 1;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		k = rustname_fix(t[i].in, strlen(t[i].in), out);
		if (k == (size_t)-1 || k != strlen(t[i].out) ||
		    memcmp(out, t[i].out, k) != 0) {
			printf("# %s\n", t[i].in);
			ok = 0;
		}
	}
	CHECK(ok, "rustname: demangles");
	CHECK(rustname_fix("main", 4, out) == (size_t)-1 &&
	    rustname_fix("f::h0123456789abcdeg", 20, out) == (size_t)-1 &&
	    rustname_fix("_ZN4testE", 9, out) == (size_t)-1,
	    "rustname: leaves other names");
}

/* A stack cut short in one input does not run into the next. */
static void
test_inputs(void)
{
	static const char a[] = "\n  m`a\n  m`b\n", b[] = "\n  m`c\n  3\n";
	struct dtrace_opt opt = DTRACE_OPT_INIT;
	struct fold_diag diag = FOLD_DIAG_INIT;
	struct fold_intern *frames = fold_intern_new();
	struct fold_stacks *st = fold_stacks_new(frames, 1);
	void *r = dtrace_format.open(&opt, st);
	struct fold_in *in;
	size_t n;

	in = fold_in_mem(a, sizeof a - 1, "a");
	CHECK(dtrace_format.read(r, in, &diag) == 0, "dtrace: cut short is read");
	fold_in_close(in);
	in = fold_in_mem(b, sizeof b - 1, "b");
	CHECK(dtrace_format.read(r, in, &diag) == 0, "dtrace: next input is read");
	fold_in_close(in);
	CHECK(diag.count == 1 && fold_stacks_len(st) == 1 &&
	    fold_stacks_ids(st, 0, &n) && n == 1,
	    "dtrace: inputs are apart");
	dtrace_format.close(r);
	fold_stacks_free(st);
	fold_intern_free(frames);
}

int
main(void)
{
	test_detect();
	test_rustname();
	test_inputs();
	return failed;
}
