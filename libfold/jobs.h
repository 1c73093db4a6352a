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

void fold_jobs(size_t n, unsigned jobs, void (*fn)(void *arg, size_t i),
    void *arg);

/*
 * pthread_create(tid, NULL, fn, arg), but the thread starts on another
 * processor than the caller's when there is one it may use (Linux), and
 * may move anywhere after: each thread a program starts for its jobs
 * starts with this.
 */
int fold_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg);

#endif
