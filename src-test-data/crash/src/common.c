#include "crash.h"

volatile int crash_sink;
struct node *volatile crash_null_node;

__attribute__((noinline)) void crash_touch(void) {
  crash_sink++;
}
