/* Freestanding program for cross-target conversion tests (no libc). */
static int leaf(int x) { return x * 3 + 1; }
static inline int middle(int x) { return leaf(x) + leaf(x + 1); }
__attribute__((noinline)) int outer(int x) { return middle(x) * 2; }
__attribute__((noinline)) int other(int x) { return x > 3 ? outer(x - 1) : leaf(x); }
int unused_gc(int x) { return x + 42; }
void _start(void) {
  volatile int r = other(7);
  (void)r;
  for (;;) {}
}
