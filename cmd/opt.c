#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libfold/err.h"
#include "libfold/unit.h"
#include "cmd/opt.h"
#include "cmd/util.h"

/* Where an option's value is in its table's struct. */
#define AT(set, o, type) ((type *)((char *)(set)->base + (o)->off))

/* The options of every table, each name once (the first entry). */
struct names {
	const struct fold_option **o;
	size_t n;
};

static void
collect(struct names *nm, const struct cmd_optset *sets, size_t n)
{
	const struct fold_option *o;
	size_t i, k;

	for (i = 0; i < n; i++)
		for (o = sets[i].options; o->name; o++) {
			for (k = 0; k < nm->n; k++)
				if (strcmp(nm->o[k]->name, o->name) == 0)
					break;
			if (k < nm->n) {
				/* one name, one shape: a table bug otherwise */
				if (!nm->o[k]->arg != !o->arg)
					cmd_die(EXIT_USAGE, "--%s: taken with and "
					    "without a value", o->name);
				continue;
			}
			nm->o = fold_reallocarray(nm->o, nm->n + 1,
			    sizeof *nm->o);
			nm->o[nm->n++] = o;
		}
}

static void
synopsis(FILE *f, const char *operands)
{
	fprintf(f, "usage: %s [options] %s\n", progname, operands);
}

/* "  -0, --null LIST      help" */
static void
line(FILE *f, const struct fold_option *o)
{
	char left[64];

	snprintf(left, sizeof left, "%c%c%c --%s%s%s",
	    o->shortname ? '-' : ' ', o->shortname ? o->shortname : ' ',
	    o->shortname ? ',' : ' ', o->name, o->arg ? " " : "",
	    o->arg ? o->arg : "");
	if (strlen(left) < 26)
		fprintf(f, "  %-26s %s\n", left, o->help);
	else
		fprintf(f, "  %s\n  %-26s %s\n", left, "", o->help);
}

static void
help(const struct cmd_optset *sets, size_t n, const char *operands)
{
	static const struct fold_option helpopt = { .name = "help",
	    .shortname = 'h', .help = "print this help" };
	const struct fold_option *o;
	size_t i;
	int titled = 0;

	synopsis(stdout, operands);
	for (i = 0; i < n; i++) {
		if (!sets[i].options->name)
			continue;
		if (sets[i].title)
			printf("\n%s:\n", sets[i].title);
		else if (!titled++)
			putchar('\n');
		for (o = sets[i].options; o->name; o++)
			line(stdout, o);
	}
	line(stdout, &helpopt);
	printf("\nSee %s(1) for details.\n", progname);
	exit(EXIT_OK);
}

static void
bad(const char *operands)
{
	synopsis(stderr, operands);
	fprintf(stderr, "       %s --help lists the options\n", progname);
	exit(EXIT_USAGE);
}

/* A UINT or NUMBER value v against the option's lower bound. */
static void
least(const struct fold_option *o, const char *name, double v)
{
	if (o->above && v <= o->min)
		cmd_die(EXIT_USAGE, "%s: must be above %g", name, o->min);
	if (!o->above && v < o->min)
		cmd_die(EXIT_USAGE, "%s: must be at least %g", name, o->min);
}

/*
 * Sets option o of set to value (and more, the argument after it, for
 * an option of two); given marks the flags set so far.
 */
static void
set(const struct cmd_optset *set, const struct fold_option *o,
    const char *value, const char *more, char *given)
{
	const struct fold_option *p;
	const char ***list;
	size_t *count;
	char name[80];

	snprintf(name, sizeof name, "--%s", o->name);
	switch (o->kind) {
	case FOLD_OPT_FLAG:
		for (p = set->options; p->name; p++)
			if (given[p - set->options] && p->kind == FOLD_OPT_FLAG &&
			    p->off == o->off && p->value != o->value)
				cmd_die(EXIT_USAGE, "--%s cannot be used with --%s",
				    p->name, o->name);
		given[o - set->options] = 1;
		*AT(set, o, int) = o->value;
		break;
	case FOLD_OPT_STRING:
		if (!*value || strpbrk(value, o->reject))
			cmd_die(EXIT_USAGE, "%s: not %s: '%s'", name, o->what,
			    value);
		*AT(set, o, const char *) = value;
		break;
	case FOLD_OPT_TEXT:
		*AT(set, o, const char *) = value;
		break;
	case FOLD_OPT_SIZE:
		*AT(set, o, uint64_t) = cmd_size(name, value);
		break;
	case FOLD_OPT_UINT:
		*AT(set, o, unsigned long long) = cmd_uint(name, value);
		least(o, name, (double)*AT(set, o, unsigned long long));
		break;
	case FOLD_OPT_NUMBER:
		*AT(set, o, double) = cmd_number(name, value);
		least(o, name, *AT(set, o, double));
		break;
	case FOLD_OPT_LIST:
	case FOLD_OPT_KEYS:
		list = AT(set, o, const char **);
		count = (size_t *)((char *)set->base + o->countoff);
		if (o->kind == FOLD_OPT_KEYS) {
			/* copies: value is split in every table that has it */
			const char *k = value, *e;
			size_t before = *count;
			for (; *k; k = *e ? e + 1 : e) {
				e = k + strcspn(k, ",");
				if (e == k)
					continue;
				*list = fold_reallocarray(*list, *count + 1,
				    sizeof **list);
				(*list)[(*count)++] = fold_strndup(k, e - k);
			}
			if (*count == before)
				cmd_die(EXIT_USAGE, "%s: no label key", name);
			break;
		}
		*list = fold_reallocarray(*list, *count + 2, sizeof **list);
		(*list)[(*count)++] = value;
		(*list)[*count] = NULL;
		break;
	case FOLD_OPT_CALL:
		if (o->call(set->base, value, more) < 0)
			cmd_die(EXIT_USAGE, "%s: %s", name, fold_err());
		break;
	}
}

/* The operands of cmd_parse, in order. */
struct operands {
	char **v;
	size_t n;
};

static void
keep(void *arg, char *op)
{
	struct operands *ops = arg;

	ops->v[ops->n++] = op;
}

int
cmd_parse_each(int argc, char *argv[], const struct cmd_optset *sets,
    size_t n, const char *operands, void (*operand)(void *arg, char *op),
    void *arg)
{
	struct names nm = { NULL, 0 };
	struct option *lo;
	const struct fold_option *o;
	/* "-": operands come back in order, never permuted, so that an
	   option can take the argument after its value (--replace RE REPL)
	   and an operand can depend on the options before it */
	char shorts[64] = "-h", **given, *more;
	struct operands ops = { NULL, 0 };
	size_t i, k, len = 2;
	int c;

	collect(&nm, sets, n);
	lo = fold_calloc(nm.n + 2, sizeof *lo);
	for (k = 0; k < nm.n; k++) {
		lo[k] = (struct option){ nm.o[k]->name, nm.o[k]->arg ?
		    required_argument : no_argument, NULL, 256 + (int)k };
		if (nm.o[k]->shortname && len + 3 < sizeof shorts) {
			shorts[len++] = (char)nm.o[k]->shortname;
			if (nm.o[k]->arg)
				shorts[len++] = ':';
			shorts[len] = '\0';
		}
	}
	lo[nm.n] = (struct option){ "help", no_argument, NULL, 'h' };
	given = fold_calloc(n, sizeof *given);
	for (i = 0; i < n; i++) {
		for (o = sets[i].options; o->name; o++)
			;
		given[i] = fold_calloc(o - sets[i].options + 1, 1);
	}
	if (!operand) {		/* cmd_parse: kept, then moved to the end */
		ops.v = fold_calloc(argc + 1, sizeof *ops.v);
		operand = keep;
		arg = &ops;
	}
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == 'h' || c == '?' || c == ':')
			break;
		if (c == 1) {
			operand(arg, optarg);
			continue;
		}
		if (c < 256)	/* a short name: its long option */
			for (k = 0; k < nm.n && nm.o[k]->shortname != c; k++)
				;
		else
			k = c - 256;
		more = NULL;
		if (nm.o[k]->args == 2) {
			if (optind >= argc) {
				/* as getopt says of a missing value */
				cmd_warn("option '--%s' requires arguments %s",
				    nm.o[k]->name, nm.o[k]->arg);
				c = '?';
				break;
			}
			more = argv[optind++];
		}
		for (i = 0; i < n; i++)
			for (o = sets[i].options; o->name; o++)
				if (strcmp(o->name, nm.o[k]->name) == 0)
					set(&sets[i], o, optarg, more,
					    given[i]);
	}
	for (i = 0; i < n; i++)
		free(given[i]);
	free(given);
	free(lo);
	free(nm.o);
	if (c == 'h' || c == '?' || c == ':')
		free(ops.v);
	if (c == 'h')
		help(sets, n, operands);
	if (c == '?' || c == ':')
		bad(operands);
	/* after "--": operands all */
	for (; optind < argc; optind++)
		operand(arg, argv[optind]);
	/* cmd_parse's operands at the end of argv, in order */
	for (k = 0; k < ops.n; k++)
		argv[argc - ops.n + k] = ops.v[k];
	free(ops.v);
	return argc - (int)ops.n;
}

int
cmd_parse(int argc, char *argv[], const struct cmd_optset *sets, size_t n,
    const char *operands)
{
	return cmd_parse_each(argc, argv, sets, n, operands, NULL, NULL);
}

/* Progress is the process's: these options set nothing in the struct. */
static int
progress(void *opts, const char *value, const char *more)
{
	cmd_progress_opt(CMD_OPT_PROGRESS);
	return 0;
}

static int
noprogress(void *opts, const char *value, const char *more)
{
	cmd_progress_opt(CMD_OPT_NO_PROGRESS);
	return 0;
}

#define OFF(field) offsetof(struct cmd_common, field)

const struct fold_option cmd_opt_progress[] = {
	{ .name = "no-progress", .kind = FOLD_OPT_CALL, .call = noprogress,
	    .help = "never show the progress of reading" },
	{ .name = "progress", .kind = FOLD_OPT_CALL, .call = progress,
	    .help = "show the progress of reading on standard error" },
	{ .name = NULL }
};

const struct fold_option cmd_opt_strict[] = {
	{ .name = "strict", .kind = FOLD_OPT_FLAG, .off = OFF(strict),
	    .value = 1, .help = "make the first bad part of an input an error" },
	{ .name = NULL }
};

const struct fold_option cmd_opt_jobs[] = {
	{ .name = "jobs", .shortname = 'j', .arg = "N",
	    .kind = FOLD_OPT_UINT, .off = OFF(jobs), .min = 0, .above = 1,
	    .help = "read on N threads (default: one per processor)" },
	{ .name = NULL }
};

const struct fold_option cmd_opt_files[] = {
	{ .name = "null", .shortname = '0', .kind = FOLD_OPT_FLAG,
	    .off = OFF(nul), .value = 1,
	    .help = "the --files-from list is NUL-separated" },
	{ .name = "files-from", .arg = "LIST", .kind = FOLD_OPT_STRING,
	    .off = OFF(list), .reject = "", .what = "a file name",
	    .help = "read the inputs named in LIST (\"-\": stdin)" },
	{ .name = NULL }
};

static int
unit(void *opts, const char *value, const char *more)
{
	if (!fold_unit_valid(value, strlen(value)))
		return fold_seterr("not a unit name: '%s'", value);
	((struct cmd_common *)opts)->unit = value;
	return 0;
}

const struct fold_option cmd_opt_unit[] = {
	{ .name = "unit", .arg = "NAME", .kind = FOLD_OPT_CALL, .call = unit,
	    .help = "count in NAME, adding inputs of any unit" },
	{ .name = NULL }
};

#undef OFF

void
cmd_optset_release(const struct cmd_optset *sets, size_t n)
{
	const struct fold_option *o;
	const char **list;
	size_t i, k, count;

	for (i = 0; i < n; i++)
		for (o = sets[i].options; o->name; o++) {
			if (o->kind != FOLD_OPT_LIST && o->kind != FOLD_OPT_KEYS)
				continue;
			list = *AT(&sets[i], o, const char **);
			count = *(size_t *)((char *)sets[i].base + o->countoff);
			for (k = 0; o->kind == FOLD_OPT_KEYS && k < count; k++)
				free((char *)list[k]);
			free(list);
		}
}
