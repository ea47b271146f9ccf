/* A thread other than the main one crashes while the others sleep in libc: one in
 * pthread_cond_wait, one in nanosleep, main in pthread_join. Small thread stacks keep the core
 * small (each stack is dumped whole). */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include "crash.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void announce(void) {
  pthread_mutex_lock(&lock);
  ready++;
  pthread_cond_broadcast(&ready_cond);
  pthread_mutex_unlock(&lock);
}

NOINLINE static void *waiter_main(void *arg) {
  (void) arg;
  pthread_mutex_lock(&lock);
  ready++;
  pthread_cond_broadcast(&ready_cond);
  for (;;) pthread_cond_wait(&never, &lock); /* sleeps in libc, holding nothing */
  return 0;
}

NOINLINE static void *sleeper_main(void *arg) {
  (void) arg;
  announce();
  struct timespec t = {3600, 0};
  for (;;) nanosleep(&t, 0);
  return 0;
}

NOINLINE static void work2(long v) {
  KEEP_CALL(); /* a call first: the frame is set up before the fault */
  crash_null_node->value = v; /* the fault, in the third thread */
}

NOINLINE static void work1(long v) {
  work2(v * 11);
  KEEP_CALL();
}

NOINLINE static void *crasher_main(void *arg) {
  pthread_mutex_lock(&lock);
  while (ready < 2) pthread_cond_wait(&ready_cond, &lock);
  pthread_mutex_unlock(&lock);
  /* let the two others reach their sleeping system calls */
  struct timespec t = {0, 200 * 1000 * 1000};
  nanosleep(&t, 0);
  work1((long) arg);
  KEEP_CALL();
  return 0;
}

int main(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_t a, b, c;
  pthread_create(&a, &attr, waiter_main, 0);
  pthread_create(&b, &attr, sleeper_main, 0);
  pthread_create(&c, &attr, crasher_main, (void *) 3);
  pthread_join(c, 0);
  KEEP_CALL();
  return 0;
}
