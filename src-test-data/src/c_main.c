/* Plain C: several compile units (c_main.c + c_util.c), static functions,
   two-level and multi-range inlining at -O2, a function in a second text
   section, and a cold path (gcc -O2 splits it into foo.cold). */
#include <stdio.h>
#include "c_util.h"

static int counter;

static int bump(int by) {
  counter += by;
  return counter;
}

static inline int leaf(int x) {
  if (x > 100)
    return x / 3;
  return x * 5 + 1;
}

static inline int middle(int x) {
  int r = leaf(x);
  if (r & 1)
    r += leaf(r + 7);
  return r + 2;
}

__attribute__((noinline)) int outer(int x) {
  int a = middle(x);
  int b = middle(a ^ 0x55);
  return a * b;
}

/* A separate executable output section (not merged into .text). */
__attribute__((noinline, section("extra_text"))) int in_other_section(int x) {
  return bump(x) + 11;
}

__attribute__((cold, noinline)) void report(int a) {
  fprintf(stderr, "bad divisor for %d\n", a);
}

/* gcc -O2 moves the unlikely block into checked_div.cold (DW_AT_ranges). */
__attribute__((noinline)) int checked_div(int a, int b) {
  int r = 0;
  for (int i = 0; i < a; i++) {
    if (b == i) {
      report(a);
      fprintf(stderr, "skipping %d\n", i);
      r += 3;
      continue;
    }
    r += a / b;
  }
  return r;
}

int main(int argc, char **argv) {
  (void)argv;
  int v = outer(argc);
  v += in_other_section(v);
  v += util_sum(argc, v);
  v += checked_div(argc, v);
  printf("%d\n", v + bump(1));
  return 0;
}
