/* Freestanding program for the embedded-GSYM tests (no libc): prints a value computed through
 * inlined and out-of-line functions with the write system call and exits with a status, so that a
 * copy with a .gsym section can be run and compared with the original. x86-64 and i386 (which
 * runs on an x86-64 kernel) make the calls; other targets are only built, never run. */
static int leaf(int x) { return x * 3 + 1; }
static inline int middle(int x) { return leaf(x) + leaf(x + 1); }
__attribute__((noinline)) int outer(int x) { return middle(x) * 2; }
__attribute__((noinline)) int other(int x) { return x > 3 ? outer(x - 1) : leaf(x); }

static long sys3(long n, long a, long b, long c) {
#if defined(__x86_64__)
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
#elif defined(__i386__)
  long r;
  __asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c) : "memory");
  return r;
#else
  (void)n; (void)a; (void)b; (void)c;
  for (;;) {}
#endif
}

#if defined(__x86_64__)
enum { SYS_WRITE = 1, SYS_EXIT = 60 };
#else
enum { SYS_WRITE = 4, SYS_EXIT = 1 };
#endif

__attribute__((noinline)) static int format(char *out, unsigned v) {
  char tmp[16];
  int n = 0, len = 0;
  do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
  while (n) out[len++] = tmp[--n];
  out[len++] = '\n';
  return len;
}

void _start(void) {
  char buf[64];
  int len = 0;
  for (int i = 1; i <= 4; i++) len += format(buf + len, (unsigned)other(i * 3));
  sys3(SYS_WRITE, 1, (long)buf, len);
  sys3(SYS_EXIT, other(2) & 0x7f, 0, 0);
  for (;;) {}
}
