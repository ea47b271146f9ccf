/* The shared library of solib.c: frames alternate executable -> library -> executable -> library. */
#include "crash.h"
#include "crashlib.h"

NOINLINE static void lib_store(long v) {
  KEEP_CALL(); /* a call first: the frame is set up before the fault */
  crash_null_node->value = v; /* the fault, inside the library */
}

NOINLINE void crashlib_fault(long v) {
  lib_store(v + 7);
  KEEP_CALL();
}

NOINLINE void crashlib_run(crashlib_callback cb, long v) {
  cb(v * 5);
  KEEP_CALL();
}
