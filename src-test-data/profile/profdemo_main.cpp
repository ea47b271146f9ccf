// The executable of the profile tests: calls into libprofdemo.so and spends time in its own
// inlined code, so that a profile has frames in two modules.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" uint64_t profdemo_work(uint64_t seed, int rounds);

namespace {

struct Matrix {
  std::vector<double> v;
  int n;
  explicit Matrix(int n) : v(n * n), n(n) {}
  inline double& at(int i, int j) { return v[i * n + j]; }
};

__attribute__((noinline)) double multiply(Matrix& a, Matrix& b, Matrix& c) {
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < a.n; j++) {
      double s = 0;
      for (int k = 0; k < a.n; k++) s += a.at(i, k) * b.at(k, j);
      c.at(i, j) = s;
    }
  return c.at(0, 0);
}

}  // namespace

int main(int argc, char** argv) {
  int seconds_x10 = argc > 1 ? atoi(argv[1]) : 10;
  Matrix a(96), b(96), c(96);
  for (int i = 0; i < 96 * 96; i++) { a.v[i] = i % 7; b.v[i] = i % 5; }
  uint64_t r = 0;
  double d = 0;
  for (int rep = 0; rep < seconds_x10 * 20; rep++) {
    r += profdemo_work(r + rep, 40);
    d += multiply(a, b, c);
  }
  printf("%llu %g\n", (unsigned long long) r, d);
  return 0;
}
