#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

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

	if (jobs > 1 && n >= min) {
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
