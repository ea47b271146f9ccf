/* Identical code folding (gold --icf=all): twice_a and twice_b fold to one
   address; call_both has call sites for --dwarf-callsites. */
#include <stdio.h>

__attribute__((noinline)) int twice_a(int x) {
  return x * 2 + 7;
}

__attribute__((noinline)) int twice_b(int x) {
  return x * 2 + 7;
}

__attribute__((noinline)) int call_both(int x) {
  int a = twice_a(x);
  int b = twice_b(x + 1);
  return a + b;
}

int main(int argc, char **argv) {
  (void)argv;
  printf("%d\n", call_both(argc));
  return 0;
}
