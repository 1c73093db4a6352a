#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfold/count.h"
#include "libfold/err.h"
#include "libfold/input.h"
#include "cmd/util.h"

const char *progname = "fold";

static void
oom(void)
{
	static const char msg[] = ": out of memory\n";

	(void)!write(2, progname, strlen(progname));
	(void)!write(2, msg, sizeof msg - 1);
	_exit(EXIT_ERR);
}

void
cmd_init(const char *argv0)
{
	const char *p;

	if (argv0 && *argv0) {
		p = strrchr(argv0, '/');
		progname = p ? p + 1 : argv0;
	}
	fold_set_oom_handler(oom);
	signal(SIGPIPE, SIG_IGN);
}

static void
vwarn(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cmd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
cmd_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

void
cmd_say(void *arg, const char *msg)
{
	cmd_warn("%s", msg);
}

void
cmd_diag_init(struct fold_diag *d, int strict)
{
	struct fold_diag init = FOLD_DIAG_INIT;

	*d = init;
	d->report = cmd_say;
	d->strict = strict;
}

unsigned long long
cmd_diag_summary(const struct fold_diag *d, const char *one,
    const char *many)
{
	const char *what = d->count == 1 ? one : many;

	if (d->strict)		/* the first one was an error, reported as such */
		return d->count;
	if (d->count > d->limit)
		cmd_warn("%llu bad %s skipped (first %u shown)",
		    (unsigned long long)d->count, what, d->limit);
	else if (d->count)
		cmd_warn("%llu bad %s skipped", (unsigned long long)d->count,
		    what);
	return d->count;
}

int
cmd_each_input(char **files, int n,
    int (*read)(void *reader, struct fold_in *in, struct fold_diag *diag),
    void *reader, struct fold_diag *diag, int *stopped)
{
	int status = EXIT_OK, i, rc;

	*stopped = 0;
	for (i = 0; i < (n ? n : 1); i++) {
		struct fold_in *in = fold_in_open(n ? files[i] : NULL);
		if (!in) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
			continue;
		}
		if ((rc = read(reader, in, diag)) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		if (fold_in_close(in) < 0) {
			cmd_warn("%s", fold_err());
			status = EXIT_ERR;
		}
		if (rc == -2) {
			*stopped = 1;
			break;
		}
	}
	return status;
}

struct fold_out *
cmd_stdout(void)
{
	return fold_out_new(1, "<stdout>");
}

int
cmd_close(struct fold_out *out, int status)
{
	if (fold_out_close(out) < 0) {
		cmd_warn("%s", fold_err());
		return EXIT_ERR;
	}
	return status;
}

double
cmd_number(const char *opt, const char *s)
{
	struct fold_count c;

	if (fold_count_parse(s, strlen(s), &c) < 0)
		cmd_die(EXIT_USAGE, "%s: %s", opt, fold_err());
	return fold_count_val(&c);
}

unsigned long long
cmd_uint(const char *opt, const char *s)
{
	struct fold_count c;

	if (fold_count_parse(s, strlen(s), &c) < 0 || c.frac)
		cmd_die(EXIT_USAGE, "%s: not a non-negative integer: %s", opt, s);
	return c.v.u;
}

/* Adds the comma-separated keys of s to *keys. */
void
cmd_keys(const char *opt, char *s, const char ***keys, size_t *n)
{
	char *k;

	for (k = strtok(s, ","); k; k = strtok(NULL, ",")) {
		*keys = fold_reallocarray(*keys, *n + 1, sizeof **keys);
		(*keys)[(*n)++] = k;
	}
	if (*n == 0)
		cmd_die(EXIT_USAGE, "%s: no label key", opt);
}

/* BYTES, or with a K, M, G or T suffix (powers of 1024). */
unsigned long long
cmd_size(const char *opt, const char *s)
{
	static const char suffixes[] = "KMGT";
	size_t n = strlen(s);
	const char *p = n ? strchr(suffixes, s[n - 1]) : NULL;
	unsigned long long v, mul = 1;
	char *num = fold_strndup(s, p && *p ? n - 1 : n);

	if (p && *p)
		mul = 1ULL << (10 * (p - suffixes + 1));
	v = cmd_uint(opt, num);
	free(num);
	if (v == 0 || v > ~0ULL / mul)
		cmd_die(EXIT_USAGE, "%s: out of range: %s", opt, s);
	return v * mul;
}
