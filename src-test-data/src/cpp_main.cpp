// C++: namespaces, classes, virtual methods, templates, lambdas, anonymous
// namespace, and a second compile unit (cpp_shapes.cpp).
#include <cstdio>
#include "cpp_shapes.h"

namespace {
int twice(int x) { return 2 * x; }
struct Local {
  int v;
  int get() const { return twice(v); }
};
}  // namespace

namespace app {
namespace detail {
template <typename T>
T accumulate(const T *p, int n) {
  T s{};
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}
}  // namespace detail

int run(int argc) {
  int xs[4] = {argc, 2, 3, 4};
  double ds[2] = {1.5, argc * 0.5};
  auto scale = [argc](int v) { return v * argc + 1; };
  Local l{argc};
  int total = scale(detail::accumulate(xs, 4)) + l.get();
  total += static_cast<int>(detail::accumulate(ds, 2));
  return total;
}
}  // namespace app

int main(int argc, char **) {
  shapes::Square sq(argc + 1);
  shapes::Circle ci(argc);
  const shapes::Shape *all[2] = {&sq, &ci};
  std::printf("%d %f\n", app::run(argc), shapes::total_area(all, 2));
  return 0;
}
