/* A null dereference three calls below main: SIGSEGV (SEGV_MAPERR) at the field's offset. */
#include "crash.h"

NOINLINE void level3(long v) {
  KEEP_CALL(); /* a call first: the frame is set up before the fault */
  crash_null_node->value = v; /* the fault */
}

NOINLINE void level2(long v) {
  level3(v * 3);
  KEEP_CALL();
}

NOINLINE void level1(long v) {
  level2(v + 1);
  KEEP_CALL();
}

int main(int argc, char **argv) {
  (void) argv;
  level1(argc);
  KEEP_CALL();
  return 0;
}
