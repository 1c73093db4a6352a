/*
 * Independent tasks on threads.
 *
 * fold_jobs runs fn(arg, i) once for each i in [0, n), on up to jobs
 * threads (the calling thread one of them), each thread taking the next
 * task as it finishes one, so that tasks of unequal size keep every
 * thread busy. It returns once every task has run. Tasks write only what
 * is their own (task i's slot of an array): what they found is taken
 * afterwards, in task order, by the caller, so that what is said and
 * written is the same whatever jobs is. With one job, or when no thread
 * can be started, the tasks run in order on the calling thread.
 */
#ifndef FOLD_JOBS_H
#define FOLD_JOBS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/*
 * jobs, as the functions here and the library's take it: a number of
 * threads, or FOLD_JOBS_AUTO for one per processor the process may use
 * (fold_processors), counted only where threads are about to start: a
 * small input never asks. At most FOLD_JOBS_MAX.
 */
#define FOLD_JOBS_AUTO 0u
#define FOLD_JOBS_MAX 1024u

/*
 * The bytes of input (on disk) from which FOLD_JOBS_AUTO starts threads,
 * in every tool: below, threads cost more processor time than they save
 * in elapsed time (a fleet of small profiles: a third more).
 */
#define FOLD_JOBS_AUTO_BYTES ((uint64_t)8 << 20)

/* jobs, or for FOLD_JOBS_AUTO fold_processors(); at most FOLD_JOBS_MAX. */
unsigned fold_jobs_count(unsigned jobs);

/*
 * The processors this process may run on, as nproc(1) counts them, and
 * no more than the limits on processor time of its cgroups (v2's cpu.max,
 * v1's CFS quota) give it, rounded up: 1 to FOLD_JOBS_MAX. Counted once.
 */
unsigned fold_processors(void);

void fold_jobs(size_t n, unsigned jobs, void (*fn)(void *arg, size_t i),
    void *arg);

/*
 * fn(arg, a, b) over ranges [a, b) that cover [0, n) in turn: with jobs
 * and n of min or more, four ranges a thread, so that one done early
 * takes another (fold_jobs); else [0, n) at once, on the caller. For work
 * on each of n items apart from the others.
 */
void fold_jobs_ranges(size_t n, size_t min, unsigned jobs,
    void (*fn)(void *arg, size_t a, size_t b), void *arg);

/*
 * Cuts items [0, n) into tasks in order, each of weight per or more but
 * the last (weight(arg, i): item i's): (*from)[k] is task k's first item,
 * (*from)[ntasks] is n; the caller frees *from. Returns ntasks, and the
 * weight of all in *total: the tasks of an output made on threads
 * (fold_out_jobs).
 */
size_t fold_jobs_cut(size_t n, size_t per,
    size_t (*weight)(void *arg, size_t i), void *arg, size_t **from,
    size_t *total);

/*
 * The same as fold_jobs, and take(arg, i) called on the calling thread
 * for each task in order, as soon as it is done: parts of an output made
 * on threads and written in order as they come. While the next to take
 * is not done, the caller runs a task itself, if one is left. No task is
 * begun 2 * jobs or more past the next to take: the results held at a
 * time are bounded, however slowly take goes.
 */
void fold_jobs_ordered(size_t n, unsigned jobs,
    void (*fn)(void *arg, size_t i), void (*take)(void *arg, size_t i),
    void *arg);

/*
 * pthread_create(tid, NULL, fn, arg), but the thread starts on another
 * processor than the caller's when there is one it may use (Linux), and
 * may move anywhere after: each thread a program starts for its jobs
 * starts with this.
 */
int fold_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg);

/*
 * One object a thread, made at its first use and kept until the thread
 * ends (the program, for the main thread): a state dear to set up, such
 * as a compressor, that every input of a thread's would otherwise make
 * and free again. Declared static with FOLD_PERTHREAD(make, drop);
 * fold_perthread returns the calling thread's, or NULL when none can be
 * had (make failed).
 */
struct fold_perthread {
	void *(*make)(void);
	void (*drop)(void *);
	int keyed;		/* 0 not yet, 1 key made, -1 none can be */
	pthread_key_t key;
};

#define FOLD_PERTHREAD(make, drop) { (make), (drop), 0, 0 }

void *fold_perthread(struct fold_perthread *p);

#endif
