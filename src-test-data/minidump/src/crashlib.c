/* A shared library the crasher calls into: the "lib" crash happens in its code, two frames deep. */
#include <stddef.h>

struct record {
  int id;
  int *payload;
};

__attribute__((noinline)) int crashlib_read_payload(const struct record *r) {
  /* r->payload is NULL: the fault is in this library */
  return *r->payload + r->id;
}

__attribute__((noinline)) int crashlib_process(int id) {
  struct record r = {id, NULL};
  volatile int keep = crashlib_read_payload(&r);
  return keep + 1;
}
