/*
 * A small workload that blocks in several ways, for off-CPU and wakeup
 * captures: a pipe ping-pong between two threads, short sleeps, and a
 * busy loop. usage: blocker SECONDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static volatile int stop;
static volatile unsigned long spin;

static void
nap(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

static void *
server(void *arg)
{
	char c;

	while (read(ping[0], &c, 1) == 1 && !stop)
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

static void
client_request(void)
{
	char c = 'x';

	if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
		exit(1);
}

static void *
client(void *arg)
{
	while (!stop) {
		client_request();
		nap(2000);
	}
	return NULL;
}

static void
burn(void)
{
	unsigned long i;

	for (i = 0; i < 2000000; i++)
		spin += i;
}

static void *
worker(void *arg)
{
	while (!stop) {
		burn();
		nap(10000);
	}
	return NULL;
}

int
main(int argc, char *argv[])
{
	pthread_t t[3];
	int i, secs = argc > 1 ? atoi(argv[1]) : 5;

	if (pipe(ping) < 0 || pipe(pong) < 0)
		return 1;
	pthread_create(&t[0], NULL, server, NULL);
	pthread_create(&t[1], NULL, client, NULL);
	pthread_create(&t[2], NULL, worker, NULL);
	sleep(secs);
	stop = 1;
	for (i = 1; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
