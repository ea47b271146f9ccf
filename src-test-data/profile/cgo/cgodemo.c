// C half of cgodemo (main.go). Built by cgo with -O2 -g -fno-omit-frame-pointer: the static
// functions below are inlined (inline frames for the profile), the frame pointers let
// cgodemo_traceback walk the C stack.
#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>
#include <ucontext.h>
#include "cgodemo.h"

static inline uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  return x;
}

static inline uint64_t fold(const uint64_t *v, int n) {
  uint64_t h = 0;
  for (int i = 0; i < n; i++) h = mix(h ^ v[i]) + (uint64_t)i;
  return h;
}

__attribute__((noinline)) static uint64_t cgodemo_block(uint64_t seed) {
  uint64_t v[64];
  for (int i = 0; i < 64; i++) v[i] = mix(seed + (uint64_t)i);
  return fold(v, 64);
}

__attribute__((noinline)) uint64_t cgodemo_work(uint64_t seed, int rounds) {
  uint64_t h = seed;
  for (int r = 0; r < rounds; r++) h = cgodemo_block(h) ^ (uint64_t)r;
  return h;
}

// runtime.SetCgoTraceback's traceback function: Buf gets the PCs of the C frames, innermost
// first, ending with a 0. Called in the SIGPROF handler with the signal's ucontext in SigContext;
// walks the frame pointer chain while it goes up the stack (it ends at Go's asmcgocall, whose
// caller's frame is on the goroutine's stack).
struct cgo_traceback_arg {
  uintptr_t context;
  uintptr_t sig_context;
  uintptr_t *buf;
  uintptr_t max;
};

void cgodemo_traceback(void *p) {
  struct cgo_traceback_arg *a = p;
  uintptr_t n = 0;
  if (a->sig_context != 0 && a->max > 1) {
    ucontext_t *uc = (ucontext_t *)a->sig_context;
    uintptr_t *fp = (uintptr_t *)uc->uc_mcontext.gregs[REG_RBP];
    a->buf[n++] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    while (n < a->max - 1 && fp != NULL && ((uintptr_t)fp & 7) == 0) {
      uintptr_t ret = fp[1];
      uintptr_t *next = (uintptr_t *)fp[0];
      if (ret == 0) break;
      a->buf[n++] = ret;
      if (next <= fp || (uintptr_t)next - (uintptr_t)fp > (1 << 20)) break;
      fp = next;
    }
  }
  if (n < a->max) a->buf[n] = 0;
}
