/* A null dereference three calls below _start, freestanding (no libc: it runs under qemu-user with
 * nothing but itself), for the AArch64 core of the corpus. The faulting function calls first (its
 * frame record is set up before the fault) and every call is followed by another. */
struct node {
  struct node *next;
  long pad;
  long value;
};

struct node *volatile crash_null_node;
volatile int crash_sink;

__attribute__((noinline)) void crash_touch(void) {
  crash_sink++;
}

__attribute__((noinline)) void level3(long v) {
  crash_touch();
  crash_null_node->value = v; /* the fault */
}

__attribute__((noinline)) void level2(long v) {
  level3(v * 3);
  crash_touch();
}

__attribute__((noinline)) void level1(long v) {
  level2(v + 1);
  crash_touch();
}

void _start(void) {
  level1(1);
  crash_touch();
  for (;;) {
  }
}
