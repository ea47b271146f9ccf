#include "macho_util.h"

static inline int sq(int x) { return x * x; }
__attribute__((noinline)) int util_sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += sq(i);
  return s;
}
/* util_twice and util_thrice compile to the same code: ld64.lld --icf=all folds them. */
__attribute__((noinline)) int util_twice(int n) { return n * 2; }
__attribute__((noinline)) int util_thrice(int n) { return n * 2; }
