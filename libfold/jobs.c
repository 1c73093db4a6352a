#include <pthread.h>
#include <stdlib.h>

#include "err.h"
#include "jobs.h"

struct jobs {
	pthread_mutex_t lock;
	size_t next, n;
	void (*fn)(void *, size_t);
	void *arg;
};

static void *
run(void *p)
{
	struct jobs *j = p;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&j->lock);
		i = j->next < j->n ? j->next++ : j->n;
		pthread_mutex_unlock(&j->lock);
		if (i == j->n)
			return NULL;
		j->fn(j->arg, i);
	}
}

void
fold_jobs(size_t n, unsigned jobs, void (*fn)(void *arg, size_t i),
    void *arg)
{
	struct jobs j = { .n = n, .fn = fn, .arg = arg };
	pthread_t *tid;
	unsigned t, nt = 0;
	size_t i;

	if (jobs > n)
		jobs = n;
	if (jobs <= 1) {
		for (i = 0; i < n; i++)
			fn(arg, i);
		return;
	}
	pthread_mutex_init(&j.lock, NULL);
	tid = fold_reallocarray(NULL, jobs - 1, sizeof *tid);
	for (t = 0; t + 1 < jobs; t++)
		if (pthread_create(&tid[nt], NULL, run, &j) == 0)
			nt++;
	run(&j);
	for (t = 0; t < nt; t++)
		pthread_join(tid[t], NULL);
	free(tid);
	pthread_mutex_destroy(&j.lock);
}
