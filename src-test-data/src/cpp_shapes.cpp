// Second C++ compile unit: out-of-line virtuals and an inlined helper.
#include "cpp_shapes.h"

namespace shapes {
namespace {
inline double sq(double v) { return v * v; }
}  // namespace

Shape::~Shape() {}
double Square::area() const { return sq(side_); }
double Circle::area() const { return 3.14159 * sq(r_); }

double total_area(const Shape *const *shapes, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) t += shapes[i]->area();
  return t;
}
}  // namespace shapes
