#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "folded.h"
#include "jobs.h"
#include "str.h"
#include "unit.h"

/*
 * The count is the last field and one blank separates it from the stack,
 * as in flamegraph.pl: blanks before that one belong to the last frame's
 * name (perf's collapser writes frames such as "[unknown] "), so every
 * name without ';' or newline reads back as it was written.
 */
static int
parse(const char *line, size_t len, size_t *stacklen,
    struct fold_count *counts, int maxcols)
{
	struct fold_count c[FOLD_MAXCOLS];
	size_t end = len, b;
	int k = 0, i;

	if (maxcols > FOLD_MAXCOLS)
		maxcols = FOLD_MAXCOLS;
	while (end > 0 && fold_isspace(line[end - 1]))
		end--;
	if (end == 0)
		return 0;
	for (b = end; b > 0 && !fold_isspace(line[b - 1]); b--)
		;
	if (b == 0)
		return fold_seterr("no count after the stack");
	if (fold_count_parse(line + b, end - b, &c[0]) < 0)
		return -1;
	k = 1;
	end = b - 1;
	while (k < maxcols) {
		/* only digits and points can be a count: look no further back */
		size_t b2;
		for (b2 = end; b2 > 0 && (fold_isdigit(line[b2 - 1]) ||
		    line[b2 - 1] == '.'); b2--)
			;
		/* and a blank and a stack before it: "5 6" is the stack "5" */
		if (b2 < 2 || b2 == end || !fold_isspace(line[b2 - 1]) ||
		    fold_count_parse(line + b2, end - b2, &c[k]) < 0)
			break;
		k++;
		end = b2 - 1;
	}
	if (end == 0)
		return fold_seterr("empty stack");
	for (i = 0; i < k; i++)
		counts[i] = c[k - 1 - i];
	*stacklen = end;
	return k;
}

/*
 * A line that begins with '#' and is no folded line is a comment, as
 * other readers of folded stacks take it: a header written above the
 * stacks ("# perf record -g ...") is skipped like a blank line, not
 * counted as bad.
 */
int
fold_parse_line(const char *line, size_t len, size_t *stacklen,
    struct fold_count *counts, int maxcols)
{
	int k = parse(line, len, stacklen, counts, maxcols);

	return k < 0 && len > 0 && line[0] == '#' ? 0 : k;
}

static int
allzero(const struct fold_count *c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!fold_count_iszero(&c[i]))
			return 0;
	return 1;
}

int
fold_detect(const char *head, size_t n, int eof)
{
	const char *p = head, *end = head + n, *s;
	struct fold_count c[FOLD_MAXCOLS];
	size_t len, slen;
	uint64_t good = 0, bad = 0;
	int k;

	while (fold_head_line(&p, end, eof, &s, &len)) {
		if ((k = fold_parse_line(s, len, &slen, c, FOLD_MAXCOLS)) == 0)
			continue;
		if (k < 0 || fold_isblank(s[0]))
			bad++;
		else
			good++;
	}
	/* a first line longer than the head (a stack of 10,000 frames): its
	   count is out of sight, and text is all that can be told */
	if (!eof && n > 0 && !memchr(head, '\n', n) && !memchr(head, '\0', n) &&
	    !fold_isblank(head[0]) && memchr(head, ';', n))
		return 1;
	/* a few bad lines are the reader's to report */
	return good > 0 && good >= 4 * bad;
}

int
fold_read(struct fold_in *in, struct fold_stacks *st,
    const struct fold_readopt *opt, struct fold_diag *diag)
{
	static const struct fold_readopt none = FOLD_READOPT_INIT;
	struct fold_intern *fr = fold_stacks_frames(st);
	int ncols = fold_stacks_ncols(st), k, r;
	/* each stack is added to the table while the next lines are read */
	struct fold_addq *q = fold_addq_new(st);
	struct fold_count c[FOLD_MAXCOLS];
	uint32_t **ids;
	size_t n, *cap;
	const char *line;
	size_t len, slen;
	int most = 0, u;
	char unit[FOLD_UNIT_MAX + 1] = "";
	/* the parts of an input are read, and their tables merged with st,
	   when the next line is read: the line before must be in st */
	int defer = !fold_in_parted(in);

	if (!opt)
		opt = &none;
	while ((r = fold_in_line(in, &line, &len)) > 0) {
		if (opt->col >= 0) {
			c[0] = c[1] = fold_count_u64(0);
			k = fold_parse_line(line, len, &slen, &c[opt->col], 1);
		} else {
			k = fold_parse_line(line, len, &slen, c, ncols);
			if (k > 0 && k < ncols) {	/* "stack N": 0 N */
				c[1] = c[0];
				c[0] = fold_count_u64(0);
			}
		}
		if (k == 0)
			continue;
		/*
		 * A warning may stop the run (--strict): the lines before it
		 * are in st then, as when each line is added at once.
		 */
		if (k < 0) {
			if (fold_addq_flush(q) < 0 ||
			    fold_warn(diag, fold_in_name(in), fold_in_lineno(in),
			    "%s", fold_err()) < 0)
				goto fail;
			continue;
		}
		/* '#' first: one byte tells most lines from a unit line */
		if (line[0] == '#' && allzero(c, ncols) &&
		    (u = fold_unit_take(unit, line, slen)) != 0) {
			if (opt->unitlines)
				(*opt->unitlines)++;
			if (u < 0 && (fold_addq_flush(q) < 0 ||
			    fold_warn(diag, fold_in_name(in),
			    fold_in_lineno(in), "%s", fold_err()) < 0))
				goto fail;
			continue;
		}
		if (k > most)
			most = k;
		if (opt->rewrite)
			line = opt->rewrite(opt->arg, line, &slen);
		ids = fold_addq_room(q, &cap);
		n = fold_intern_stack(fr, line, slen, ids, cap, 0);
		if (fold_addq_push(q, n, c, fold_in_name(in),
		    fold_in_lineno(in)) < 0 || (!defer && fold_addq_flush(q) < 0))
			goto fail;
	}
	/* after a read error too: what was read is kept */
	if (fold_addq_flush(q) < 0 || r < 0)
		goto fail;
	fold_addq_free(q);
	if ((most > 0 || unit[0]) && fold_stacks_set_unit(st, unit[0] ? unit :
	    FOLD_UNIT_SAMPLES, strlen(unit[0] ? unit : FOLD_UNIT_SAMPLES)) < 0)
	{
		fold_seterr_at(fold_in_name(in), 0, "%s", fold_err());
		return -2;
	}
	return most;
fail:
	fold_addq_free(q);
	return -1;
}

void
fold_write(struct fold_out *out, struct fold_stacks *st)
{
	fold_write_jobs(out, st, 1);
}

/* The lines of stacks [a, b) of the sorted st, u's in its place. */
static void
write_lines(struct fold_out *out, struct fold_stacks *st, size_t a,
    size_t b, struct fold_unit_out *u)
{
	const struct fold_intern *fr = fold_stacks_frames(st);
	int ncols = fold_stacks_ncols(st), c;
	size_t i, n, o, cap = 0;
	char *line = NULL;

	/* each line is put together, then written in one piece */
	for (i = a; i < b && !fold_out_failed(out); i++) {
		const uint32_t *ids = fold_stacks_ids(st, i, &n);
		const struct fold_count *cnt = fold_stacks_counts(st, i);
		fold_stacks_prefetch_ids(st, i + 4);
		o = fold_intern_join(fr, ids, n, &line, &cap, 0);
		fold_unit_out_before(u, out, line, o);
		line = fold_grow(line, &cap, o + ncols * (FOLD_COUNT_BUFSZ + 1) + 1,
		    1);
		for (c = 0; c < ncols; c++) {
			line[o++] = ' ';
			o += fold_count_fmt(&cnt[c], line + o);
		}
		line[o++] = '\n';
		fold_out_write(out, line, o);
	}
	free(line);
}

/*
 * With jobs, the lines are put together on threads in tasks of about
 * TASK_FRAMES frames (a few hundred KB of text), each in memory of its
 * own, written in order as they are done. A table of fewer than four
 * tasks' worth is written on one thread: starting one costs more than it
 * saves.
 */
enum { TASK_FRAMES = 16384 };

struct tasks {
	struct fold_stacks *st;
	size_t *from;		/* task k: stacks [from[k], from[k + 1]) */
	struct fold_unit_out u;
	size_t unit;		/* the task whose lines u goes in */
};

static void
write_task(void *arg, size_t k, struct fold_out *mem)
{
	struct tasks *t = arg;
	struct fold_unit_out none;

	fold_unit_out_init(&none, NULL, 0);
	write_lines(mem, t->st, t->from[k], t->from[k + 1],
	    k == t->unit ? &t->u : &none);
	if (k == t->unit)
		fold_unit_out_end(&t->u, mem);
}

/* A stack's weight in a task: its frames. */
static size_t
frames_weight(void *arg, size_t i)
{
	size_t n;

	fold_stacks_ids(arg, i, &n);
	return n;
}

/*
 * Cuts [0, len) into tasks (t->from, returns how many); 1 when they are
 * not worth threads. The unit line goes in the first task that it sorts
 * before the next one of (before its first line), else in the last:
 * known before any task runs.
 */
static size_t
cut_tasks(struct tasks *t, size_t len)
{
	size_t i, n, total, ntasks, lcap = 0, o;
	const uint32_t *ids;
	char *line = NULL;

	ntasks = fold_jobs_cut(len, TASK_FRAMES, frames_weight, t->st, &t->from,
	    &total);
	if (total < 4 * TASK_FRAMES)
		return 1;
	t->unit = ntasks - 1;
	for (i = 0; i + 1 < ntasks && t->u.len; i++) {
		ids = fold_stacks_ids(t->st, t->from[i + 1], &n);
		o = fold_intern_join(fold_stacks_frames(t->st), ids, n, &line,
		    &lcap, 0);
		if (fold_unit_out_due(&t->u, line, o)) {
			t->unit = i;
			break;
		}
	}
	free(line);
	return ntasks;
}

void
fold_write_jobs(struct fold_out *out, struct fold_stacks *st, unsigned jobs)
{
	struct tasks t = { .st = st };
	size_t len, ntasks;

	fold_stacks_sort_jobs(st, FOLD_ORDER_TEXT, jobs);
	len = fold_stacks_len(st);
	/* a profile of no stack has nothing to count in a unit */
	fold_unit_out_init(&t.u, len ? fold_stacks_unit(st) : NULL,
	    fold_stacks_ncols(st));
	if (jobs == 1 || (ntasks = cut_tasks(&t, len)) <= 1 ||
	    (jobs = fold_jobs_count(jobs)) <= 1) {
		write_lines(out, st, 0, len, &t.u);
		fold_unit_out_end(&t.u, out);
	} else
		fold_out_jobs(out, ntasks, jobs, write_task, &t);
	free(t.from);
}
