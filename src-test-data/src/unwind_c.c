/* Functions whose compiled prologs need every kind of unwind information a compiler emits:
 * frame pointers (alloca), large frames, callee-saved integer and vector registers live across
 * calls, leaf functions, recursion. Freestanding: built for Mach-O (x86_64, arm64: compact unwind)
 * and Windows x64 (msvc and mingw: .pdata/.xdata) by regenerate-unwind.sh. */
#define NOINLINE __attribute__((noinline))

volatile int sink;
int _fltused; /* what msvc's CRT defines when floating point is used */

NOINLINE void touch(volatile char *p, int n) {
  for (int i = 0; i < n; i += 64) p[i] = (char)i;
}

NOINLINE int leaf(int x) { return x * 3 + 1; }

NOINLINE int big_frame(int x) {
  volatile char buf[70000];
  touch(buf, sizeof buf);
  return buf[x & 0xffff];
}

NOINLINE int huge_frame(int x) {
  volatile char buf[700000];
  touch(buf, sizeof buf);
  return buf[x & 0xfffff];
}

NOINLINE int dynamic_frame(int n) {
  volatile char *p = __builtin_alloca((unsigned)n);
  touch(p, n);
  return p[n / 2];
}

NOINLINE double vectors(double a, double b, double c) {
  double x = a * b, y = b * c, z = a * c, w = a + b + c;
  sink = leaf((int)x);
  double u = x * y + z;
  sink = leaf((int)u);
  return x + y + z + w + u * a * b * c;
}

NOINLINE int many_registers(int a, int b, int c, int d, int e, int f) {
  int p = a * b, q = c * d, r = e * f, s = a + f, t = b + e, u = c + d;
  sink = leaf(p);
  int v = p + q * r;
  sink = leaf(v);
  return p * q + r * s + t * u + v * a + leaf(s + t + u);
}

NOINLINE int recurse(int n) {
  if (n <= 0) return leaf(n);
  volatile int local[8];
  local[n & 7] = n;
  return recurse(n - 1) + local[n & 7];
}

NOINLINE int early_exit(int x) {
  volatile char buf[64];
  touch(buf, sizeof buf);
  if (x > 100) return leaf(x);
  if (x < 0) {
    touch(buf, 32);
    return buf[3];
  }
  return buf[x & 63] + leaf(x);
}

int main(void) {
  return big_frame(1) + huge_frame(2) + dynamic_frame(100) + (int)vectors(1.5, 2.5, 3.5) +
         many_registers(1, 2, 3, 4, 5, 6) + recurse(5) + early_exit(sink);
}

/* the entry point of the Windows images (no CRT) */
int mainCRTStartup(void) { return main(); }
