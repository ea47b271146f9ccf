// A program that installs Breakpad's Linux ExceptionHandler and crashes in the way its first
// argument names; the handler writes the minidump into the directory of the second argument.
//   null     write through a null pointer (SIGSEGV) three frames below main
//   abort    abort() (SIGABRT) below two frames
//   recurse  40 levels of recursion, then a null read (SIGSEGV)
//   lib      a null read inside libcrashlib.so (SIGSEGV)
//   thread   three worker threads sleeping in libc (nanosleep, a condition variable, read on a
//            pipe), then a null write on a fourth thread (SIGSEGV) while main waits in pthread_join
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/linux/handler/exception_handler.h"

extern "C" int crashlib_process(int id);

// App memory the handler adds to the dump's memory list (ExceptionHandler::RegisterAppMemory)
static char g_app_memory[256];

static bool DumpWritten(const google_breakpad::MinidumpDescriptor& descriptor, void*, bool succeeded) {
  // async-signal context: only write(2)
  const char* p = descriptor.path();
  if (write(2, "minidump: ", 10) < 0 || write(2, p, strlen(p)) < 0 || write(2, "\n", 1) < 0) return succeeded;
  return succeeded;
}

extern "C" {

__attribute__((noinline)) void crash_null_write(int *where, int value) {
  *where = value;
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void crash_null_middle(int value) {
  int *volatile p = NULL;
  crash_null_write(p, value * 3);
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void crash_null(void) {
  crash_null_middle(7);
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void crash_abort_inner(int code) {
  if (code > 0) abort();
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void crash_abort(void) {
  crash_abort_inner(6);
  __asm__ volatile("" ::: "memory");
}

// not a tail call (the result is used after it), so every level keeps its frame
__attribute__((noinline)) int crash_recurse(int depth) {
  volatile int local = depth;
  if (depth == 0) {
    int *volatile p = NULL;
    return *p;
  }
  return crash_recurse(depth - 1) + local;
}

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cond = PTHREAD_COND_INITIALIZER;
static int g_pipe[2];
static volatile int g_started;

static void* sleeper_nanosleep(void*) {
  __sync_fetch_and_add(&g_started, 1);
  struct timespec ts = {3600, 0};
  for (;;) nanosleep(&ts, NULL);
  return NULL;
}

static void* sleeper_cond(void*) {
  pthread_mutex_lock(&g_mutex);
  __sync_fetch_and_add(&g_started, 1);
  for (;;) pthread_cond_wait(&g_cond, &g_mutex);
  return NULL;
}

static void* sleeper_read(void*) {
  __sync_fetch_and_add(&g_started, 1);
  char c;
  for (;;) if (read(g_pipe[0], &c, 1) <= 0) break;
  return NULL;
}

__attribute__((noinline)) static void crashing_worker_step(int *where) {
  *where = 0x2a;
  __asm__ volatile("" ::: "memory");
}

static void* crashing_worker(void*) {
  // crash only once the sleepers are in their system calls
  while (g_started < 3) sched_yield();
  struct timespec ts = {0, 100 * 1000 * 1000};
  nanosleep(&ts, NULL);
  int *volatile p = NULL;
  crashing_worker_step(p);
  return NULL;
}

__attribute__((noinline)) void crash_thread(void) {
  if (pipe(g_pipe) != 0) abort();
  pthread_t t[4];
  pthread_create(&t[0], NULL, sleeper_nanosleep, NULL);
  pthread_create(&t[1], NULL, sleeper_cond, NULL);
  pthread_create(&t[2], NULL, sleeper_read, NULL);
  pthread_create(&t[3], NULL, crashing_worker, NULL);
  pthread_join(t[3], NULL);
}

}  // extern "C"

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s null|abort|recurse|lib|thread DUMP-DIRECTORY\n", argv[0]);
    return 2;
  }
  google_breakpad::MinidumpDescriptor descriptor(argv[2]);
  google_breakpad::ExceptionHandler handler(descriptor, NULL, DumpWritten, NULL, true, -1);
  memset(g_app_memory, 0x5a, sizeof g_app_memory);
  strcpy(g_app_memory, "gsym-java minidump corpus: app memory registered with the handler");
  handler.RegisterAppMemory(g_app_memory, sizeof g_app_memory);
  const char* mode = argv[1];
  if (strcmp(mode, "null") == 0) crash_null();
  else if (strcmp(mode, "abort") == 0) crash_abort();
  else if (strcmp(mode, "recurse") == 0) printf("%d\n", crash_recurse(40));
  else if (strcmp(mode, "lib") == 0) printf("%d\n", crashlib_process(5));
  else if (strcmp(mode, "thread") == 0) crash_thread();
  else {
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  return 1;  // not reached: every mode crashes
}
