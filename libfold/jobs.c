#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "jobs.h"

struct jobs {
	pthread_mutex_t lock;
	size_t next, n;
	void (*fn)(void *, size_t);
	void *arg;
	/* fold_jobs_ordered's */
	pthread_cond_t ready, room;	/* a task done; one taken */
	unsigned char *done;		/* by task */
	size_t taken, ahead;		/* tasks taken; at most past them */
	int waiting, full;		/* the caller waits; threads do */
	pthread_t *tid;
	unsigned nt;			/* threads started */
};

/*
 * Linux queues a new thread on its creator's processor, where the two
 * share it until the periodic balancing moves one: on 2 processors often
 * 5 to 15 ms later with the other idle, a tenth of a run of a few dozen.
 * (A creator that waits until the thread runs is woken onto the thread's
 * processor.) The thread starts on another processor the creator may
 * use, then gets the creator's whole set back, to go wherever the
 * scheduler sends it.
 */
int
fold_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	pthread_attr_t a;
	int rc, moved = 0;
#ifdef __linux__
	cpu_set_t all, others;
	int cpu = sched_getcpu();
#endif

	pthread_attr_init(&a);
#ifdef __linux__
	if (cpu >= 0 && cpu < CPU_SETSIZE &&
	    pthread_getaffinity_np(pthread_self(), sizeof all, &all) == 0) {
		others = all;
		CPU_CLR(cpu, &others);
		moved = CPU_COUNT(&others) > 0 &&
		    pthread_attr_setaffinity_np(&a, sizeof others,
		    &others) == 0;
	}
#endif
	rc = pthread_create(tid, &a, fn, arg);
	pthread_attr_destroy(&a);
	if (rc != 0 && moved)
		return pthread_create(tid, NULL, fn, arg);
#ifdef __linux__
	if (moved)
		pthread_setaffinity_np(*tid, sizeof all, &all);
#endif
	return rc;
}

/*
 * The processors a default of jobs uses: those the process may run on, as
 * nproc(1) counts them, and no more than its cgroups' limits on processor
 * time give it, rounded up (cpu_limit), as Go's runtime and Rust's
 * standard library count them. A run under taskset(1), or in a container
 * or a service given a few of a large host's processors or their time,
 * would start a thread for every one online, each with tables of its
 * own, and have them share the few. Counted once, and only where threads
 * would pay (fold_jobs_count): reading the cgroups takes 0.1 to 0.2 ms,
 * a small merge's 3% to 5%.
 */

/* FOLD_TEST_ROOT, the tests', stands for / in the files read here. */
static FILE *
open_under(const char *path)
{
	const char *top = getenv("FOLD_TEST_ROOT");
	char full[PATH_MAX];

	if (snprintf(full, sizeof full, "%s%s", top ? top : "", path) >=
	    (int)sizeof full)
		return NULL;
	return fopen(full, "re");
}

/*
 * The limit of the cgroup at dir, in processors rounded up: cgroup v2's
 * cpu.max "QUOTA PERIOD" (or "max PERIOD": none), v1's cpu.cfs_quota_us
 * over cpu.cfs_period_us (-1: none); 0 for none.
 */
static unsigned long
dir_limit(const char *dir, int v1)
{
	char path[PATH_MAX];
	long long q = 0, p = 0;
	FILE *f;
	int n;

	if (snprintf(path, sizeof path, "%s/%s", dir, v1 ?
	    "cpu.cfs_quota_us" : "cpu.max") >= (int)sizeof path ||
	    (f = open_under(path)) == NULL)
		return 0;
	n = v1 ? fscanf(f, "%lld", &q) : fscanf(f, "%lld %lld", &q, &p);
	fclose(f);
	if (n != (v1 ? 1 : 2) || q <= 0)
		return 0;
	if (v1) {
		if (snprintf(path, sizeof path, "%s/cpu.cfs_period_us",
		    dir) >= (int)sizeof path ||
		    (f = open_under(path)) == NULL)
			return 0;
		n = fscanf(f, "%lld", &p);
		fclose(f);
		if (n != 1)
			return 0;
	}
	if (p <= 0)
		return 0;
	/* quota / period rounded up: quota + period - 1 might overflow */
	return (unsigned long)(q / p + (q % p != 0));
}

/* The least of two limits, 0 standing for none. */
static unsigned long
least(unsigned long a, unsigned long b)
{
	return !a || (b && b < a) ? b : a;
}

/* Undoes mountinfo's octal escapes (\040 a space) of s, in place. */
static void
unescape(char *s)
{
	char *t = s;

	for (; *s; s++, t++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*t = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 3;
		} else {
			*t = *s;
		}
	}
	*t = '\0';
}

/*
 * The least limit of the process's cgroup path and every cgroup above it
 * in a hierarchy mounted at mnt, whose root is the cgroup root: each
 * limits the processes below it.
 */
static unsigned long
walk(const char *mnt, const char *root, const char *path, int v1)
{
	char dir[PATH_MAX];
	size_t n = strlen(root), top = strlen(mnt), len;
	unsigned long l = 0;

	/* the path within the mount: past its root */
	if (strcmp(root, "/") != 0) {
		if (strncmp(path, root, n) != 0 ||
		    (path[n] != '/' && path[n] != '\0'))
			return 0;
		path += n;
	}
	if (strstr(path, "/..") ||
	    snprintf(dir, sizeof dir, "%s%s", mnt, strcmp(path, "/") ? path :
	    "") >= (int)sizeof dir)
		return 0;
	for (len = strlen(dir);;) {
		l = least(l, dir_limit(dir, v1));
		while (len > top && dir[len - 1] != '/')
			len--;
		if (len <= top)
			break;
		dir[--len] = '\0';
	}
	return l;
}

/* 1 when word is an item of the comma-separated list. */
static int
listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' ||
		    p[n] == '\0'))
			return 1;
	return 0;
}

/*
 * The least limit on processor time of the process's cgroups, cgroup v2's
 * and v1's cpu controller's: where each hierarchy is mounted, from
 * /proc/self/mountinfo, and the process's cgroup in it, from
 * /proc/self/cgroup. 0 for none.
 */
static unsigned long
cpu_limit(void)
{
	char *line = NULL, *v1 = NULL, *v2 = NULL, *f[32], *p, *s;
	size_t cap = 0;
	unsigned long l = 0;
	int n, dash;
	FILE *fp;

	/* "0::PATH" for v2; "ID:CONTROLLERS:PATH" for v1 */
	if ((fp = open_under("/proc/self/cgroup")) == NULL)
		return 0;
	while (getline(&line, &cap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!(p = strchr(line, ':')) || !(s = strchr(p + 1, ':')))
			continue;
		*s++ = '\0';
		if (strcmp(line, "0:") == 0 && !v2)
			v2 = fold_strdup(s);
		else if (listed(p + 1, "cpu") && !v1)
			v1 = fold_strdup(s);
	}
	fclose(fp);
	/* "ID PARENT MAJ:MIN ROOT MOUNT OPTIONS [TAGS...] - TYPE SOURCE
	   SUPEROPTIONS" */
	if ((v1 || v2) && (fp = open_under("/proc/self/mountinfo")) != NULL) {
		while (getline(&line, &cap, fp) > 0) {
			line[strcspn(line, "\n")] = '\0';
			for (n = 0, dash = -1, p = strtok_r(line, " ", &s);
			    p && n < 32; p = strtok_r(NULL, " ", &s)) {
				if (dash < 0 && n >= 6 && strcmp(p, "-") == 0)
					dash = n;
				f[n++] = p;
			}
			if (dash < 0 || n < dash + 4)
				continue;
			unescape(f[3]);
			unescape(f[4]);
			if (v2 && strcmp(f[dash + 1], "cgroup2") == 0)
				l = least(l, walk(f[4], f[3], v2, 0));
			else if (v1 && strcmp(f[dash + 1], "cgroup") == 0 &&
			    listed(f[dash + 3], "cpu"))
				l = least(l, walk(f[4], f[3], v1, 1));
		}
		fclose(fp);
	}
	free(line);
	free(v1);
	free(v2);
	return l;
}

static unsigned processors;

static void
count_processors(void)
{
	long n = 0;
#ifdef __linux__
	unsigned long l;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
#endif
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
	if (n > 1 && (l = cpu_limit()) > 0 && l < (unsigned long)n)
		n = (long)l;
#endif
	processors = n > 1 ? (n > FOLD_JOBS_MAX ? FOLD_JOBS_MAX :
	    (unsigned)n) : 1;
}

unsigned
fold_processors(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, count_processors);
	return processors;
}

unsigned
fold_jobs_count(unsigned jobs)
{
	if (jobs == FOLD_JOBS_AUTO)
		return fold_processors();
	return jobs > FOLD_JOBS_MAX ? FOLD_JOBS_MAX : jobs;
}

static pthread_mutex_t perthread_lock = PTHREAD_MUTEX_INITIALIZER;

void *
fold_perthread(struct fold_perthread *p)
{
	void *d;
	int keyed;

	/* once an input: a lock costs nothing next to what it saves */
	pthread_mutex_lock(&perthread_lock);
	if (p->keyed == 0)
		p->keyed = pthread_key_create(&p->key, p->drop) == 0 ? 1 : -1;
	keyed = p->keyed;
	pthread_mutex_unlock(&perthread_lock);
	if (keyed < 0)
		return NULL;
	if (!(d = pthread_getspecific(p->key)) && (d = p->make()) != NULL &&
	    pthread_setspecific(p->key, d) != 0) {
		p->drop(d);
		d = NULL;
	}
	return d;
}

static void *
run(void *p)
{
	struct jobs *j = p;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&j->lock);
		/* ordered: none begun ahead or more past the next taken */
		while (j->done && j->next < j->n &&
		    j->next >= j->taken + j->ahead) {
			j->full++;
			pthread_cond_wait(&j->room, &j->lock);
			j->full--;
		}
		i = j->next < j->n ? j->next++ : j->n;
		pthread_mutex_unlock(&j->lock);
		if (i == j->n)
			return NULL;
		j->fn(j->arg, i);
		if (j->done) {
			pthread_mutex_lock(&j->lock);
			j->done[i] = 1;
			if (j->waiting)
				pthread_cond_signal(&j->ready);
			pthread_mutex_unlock(&j->lock);
		}
	}
}

/* jobs - 1 threads running j's tasks beside the caller (j->lock made) */
static void
threads_start(struct jobs *j, unsigned jobs)
{
	unsigned t;

	pthread_mutex_init(&j->lock, NULL);
	j->tid = fold_reallocarray(NULL, jobs - 1, sizeof *j->tid);
	j->nt = 0;
	for (t = 0; t + 1 < jobs; t++)
		if (fold_thread_start(&j->tid[j->nt], run, j) == 0)
			j->nt++;
}

static void
threads_join(struct jobs *j)
{
	unsigned t;

	for (t = 0; t < j->nt; t++)
		pthread_join(j->tid[t], NULL);
	free(j->tid);
	pthread_mutex_destroy(&j->lock);
}

void
fold_jobs(size_t n, unsigned jobs, void (*fn)(void *arg, size_t i),
    void *arg)
{
	struct jobs j = { .n = n, .fn = fn, .arg = arg };
	size_t i;

	if (n > 1)
		jobs = fold_jobs_count(jobs);
	if (jobs > n)
		jobs = n;
	if (jobs <= 1) {
		for (i = 0; i < n; i++)
			fn(arg, i);
		return;
	}
	threads_start(&j, jobs);
	run(&j);
	threads_join(&j);
}

size_t
fold_jobs_cut(size_t n, size_t per, size_t (*weight)(void *arg, size_t i),
    void *arg, size_t **from, size_t *total)
{
	size_t i, w = 0, x, ntasks = 0, cap = 0;

	*from = NULL;
	*total = 0;
	for (i = 0; i < n; i++) {
		/* a task begins at the first item, and at an item of some
		   weight once the one before has its weight: items of weight
		   0 go in the task they follow */
		x = weight(arg, i);
		if (i == 0 || (w >= per && x > 0)) {
			*from = fold_grow(*from, &cap, ntasks + 2,
			    sizeof **from);
			(*from)[ntasks++] = i;
			w = 0;
		}
		*total += x;
		w += x;
	}
	*from = fold_grow(*from, &cap, ntasks + 1, sizeof **from);
	(*from)[ntasks] = n;
	return ntasks;
}

struct ranges {
	size_t n, per;
	void (*fn)(void *, size_t, size_t);
	void *arg;
};

static void
range_task(void *arg, size_t k)
{
	const struct ranges *r = arg;
	size_t a = r->per * k, b = a + r->per;

	if (a < r->n)
		r->fn(r->arg, a, b < r->n ? b : r->n);
}

void
fold_jobs_ranges(size_t n, size_t min, unsigned jobs,
    void (*fn)(void *arg, size_t a, size_t b), void *arg)
{
	struct ranges r = { n, n, fn, arg };
	size_t ntasks = 1;

	if (n > 1 && n >= min && (jobs = fold_jobs_count(jobs)) > 1) {
		ntasks = (size_t)jobs * 4;
		r.per = (n + ntasks - 1) / ntasks;
	}
	fold_jobs(ntasks, jobs, range_task, &r);
}

void
fold_jobs_ordered(size_t n, unsigned jobs, void (*fn)(void *arg, size_t i),
    void (*take)(void *arg, size_t i), void *arg)
{
	struct jobs j = { .n = n, .fn = fn, .arg = arg };
	size_t i, k;

	if (n > 1)
		jobs = fold_jobs_count(jobs);
	if (jobs > n)
		jobs = n;
	if (jobs <= 1) {
		for (i = 0; i < n; i++) {
			fn(arg, i);
			take(arg, i);
		}
		return;
	}
	j.done = fold_calloc(n, 1);
	j.ahead = (size_t)jobs * 2;
	pthread_cond_init(&j.ready, NULL);
	pthread_cond_init(&j.room, NULL);
	threads_start(&j, jobs);
	for (i = 0; i < n;) {
		/*
		 * Task i taken when done; while it is not, the caller runs
		 * the next task no thread has taken up, if any, rather than
		 * wait: so it writes and runs tasks both.
		 */
		pthread_mutex_lock(&j.lock);
		while (!j.done[i] && (j.next >= n || j.next >= i + j.ahead)) {
			j.waiting = 1;
			pthread_cond_wait(&j.ready, &j.lock);
			j.waiting = 0;
		}
		k = j.done[i] ? n : j.next++;
		pthread_mutex_unlock(&j.lock);
		if (k < n) {
			fn(arg, k);
			pthread_mutex_lock(&j.lock);
			j.done[k] = 1;
			pthread_mutex_unlock(&j.lock);
			continue;
		}
		take(arg, i++);
		pthread_mutex_lock(&j.lock);
		j.taken = i;
		if (j.full)
			pthread_cond_broadcast(&j.room);
		pthread_mutex_unlock(&j.lock);
	}
	threads_join(&j);
	free(j.done);
	pthread_cond_destroy(&j.ready);
	pthread_cond_destroy(&j.room);
}
