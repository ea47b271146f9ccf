/* Deep recursion (100 frames of recurse), then a null dereference at the bottom. */
#include "crash.h"

#define DEPTH 100

NOINLINE void bottom(long depth) {
  KEEP_CALL(); /* a call first: the frame is set up before the fault */
  crash_null_node->value = depth; /* the fault */
}

NOINLINE long recurse(long n) {
  if (n == 0) {
    bottom(n);
  } else {
    recurse(n - 1);
  }
  KEEP_CALL();
  return n;
}

int main(int argc, char **argv) {
  (void) argv;
  recurse(DEPTH + argc - 1);
  KEEP_CALL();
  return 0;
}
