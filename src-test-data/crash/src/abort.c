/* abort() two calls below main: SIGABRT raised by libc (the top frames are in libc). */
#include <stdlib.h>
#include "crash.h"

NOINLINE void check_invariant(int v) {
  if (v != 12345) abort();
  KEEP_CALL();
}

NOINLINE void process(int v) {
  check_invariant(v * 2);
  KEEP_CALL();
}

int main(int argc, char **argv) {
  (void) argv;
  process(argc);
  KEEP_CALL();
  return 0;
}
