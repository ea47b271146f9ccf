// Freestanding C++ for the Mach-O tests (no libc++, no exceptions, no RTTI): namespaces,
// classes, templates, inlining and a static constructor-free global.
namespace geo {
struct Point {
  int x, y;
  int dot(const Point &o) const { return x * o.x + y * o.y; }
};

template <typename T> T clampTo(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

class Rect {
public:
  Rect(int w, int h) : w_(w), h_(h) {}
  __attribute__((noinline)) int area() const { return clampTo(w_ * h_, 0, 1 << 20); }
  int perimeter() const { return 2 * (w_ + h_); }

private:
  int w_, h_;
};
} // namespace geo

__attribute__((noinline)) int sumAreas(int n) {
  int s = 0;
  for (int i = 1; i <= n; i++) s += geo::Rect(i, i + 1).area() + geo::Rect(i, 2).perimeter();
  return s;
}

__attribute__((noinline)) long dotAll(long n) {
  geo::Point a{1, 2}, b{3, 4};
  return n * a.dot(b) + geo::clampTo<long>(n, 0, 100);
}

extern "C" int main() {
  volatile long r = sumAreas(5) + dotAll(3);
  return static_cast<int>(r & 0x7f);
}
