/* Freestanding program for the Mach-O tests (no libc, no SDK): inlined and out-of-line calls
   across two files. */
#include "macho_util.h"

static int leaf(int x) { return x * 3 + 1; }
static inline int middle(int x) { return leaf(x) + leaf(x + 1); }
__attribute__((noinline)) int outer(int x) { return middle(x) * 2; }
__attribute__((noinline)) int other(int x) { return x > 3 ? outer(x - 1) : leaf(x); }
int unused_gc(int x) { return x + 42; }

int main(void) {
  volatile int r = other(7) + util_sum(4) + util_twice(5) + util_thrice(6);
  return r & 0x7f;
}
