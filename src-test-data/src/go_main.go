// Small Go program for the golden tests: plain functions, a generic function (two
// instantiations), a method, a closure and an inlined helper.
package main

import "os"

type square struct{ side int }

//go:noinline
func (s square) area() int { return s.side * s.side }

func leaf(x int) int {
	if x > 100 {
		return x / 3
	}
	return x*5 + 1
}

//go:noinline
func outer(x int) int { return leaf(x) * leaf(x^0x55) }

//go:noinline
func sum[T int | int32](items []T) int {
	t := 0
	for _, i := range items {
		t += leaf(int(i))
	}
	return t
}

//go:noinline
func apply(f func(int) int, x int) int { return f(x) + 1 }

func main() {
	n := len(os.Args)
	v := outer(n)
	v += sum([]int{1, 2, n})
	v += sum([]int32{3, int32(n)})
	v += square{n}.area()
	v += apply(func(x int) int { return x * n }, v)
	os.Exit(v & 1)
}
