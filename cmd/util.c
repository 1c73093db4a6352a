#include <limits.h>
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

static void
report(void *arg, const char *msg)
{
	cmd_warn("%s", msg);
}

void
cmd_diag_init(struct fold_diag *d, int strict)
{
	struct fold_diag init = FOLD_DIAG_INIT;

	*d = init;
	d->report = report;
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

int
cmd_files_from(char **files, int n, const char *list, int nul,
    char ***names)
{
	struct fold_in *in = fold_in_open(list);
	char *buf, *p, *end, *e, *text, **v;
	size_t len, count = 0, i;
	int sep = nul ? '\0' : '\n';

	if (!in || fold_in_readall(in, &buf, &len) < 0)
		cmd_die(EXIT_ERR, "%s", fold_err());
	if (fold_in_close(in) < 0)
		cmd_die(EXIT_ERR, "%s", fold_err());
	for (p = buf, end = buf + len; p < end; p = e + 1) {
		if (!(e = memchr(p, sep, end - p)))
			e = end;
		count += e > p;
	}
	if (count > (size_t)INT_MAX - n)
		cmd_die(EXIT_ERR, "%s: too many file names", list);
	/* the pointers and the names in one block */
	v = fold_malloc((n + count + 1) * sizeof *v + len + 1);
	text = (char *)(v + n + count + 1);
	memcpy(text, buf, len);
	text[len] = '\0';
	free(buf);
	for (i = 0; i < (size_t)n; i++)
		v[i] = files[i];
	for (p = text, end = text + len; p < end; p = e + 1) {
		if (!(e = memchr(p, sep, end - p)))
			e = end;
		*e = '\0';
		if (e > p)
			v[i++] = p;
	}
	v[i] = NULL;
	*names = v;
	return (int)i;
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
