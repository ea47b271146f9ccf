/* Second compile unit for c_main.c. */
#include "c_util.h"

static int square(int x) { return x * x; }

static inline int mix(int a, int b) {
  return (a << 3) ^ (b >> 1);
}

int util_sum(int n, int seed) {
  int total = seed;
  for (int i = 0; i < n; i++)
    total += mix(square(i), total);
  return total;
}

void util_unused(void) {}
