/* A crash inside a shared library (libcrashlib), reached through a callback from the library. */
#include "crash.h"
#include "crashlib.h"

NOINLINE static void on_callback(long v) {
  crashlib_fault(v - 2);
  KEEP_CALL();
}

int main(int argc, char **argv) {
  (void) argv;
  crashlib_run(on_callback, argc);
  KEEP_CALL();
  return 0;
}
