#ifndef CPP_SHAPES_H
#define CPP_SHAPES_H
namespace shapes {
class Shape {
 public:
  virtual ~Shape();
  virtual double area() const = 0;
};
class Square : public Shape {
 public:
  explicit Square(int s) : side_(s) {}
  double area() const override;
 private:
  int side_;
};
class Circle : public Shape {
 public:
  explicit Circle(int r) : r_(r) {}
  double area() const override;
 private:
  int r_;
};
double total_area(const Shape *const *shapes, int n);
}  // namespace shapes
#endif
