/* stack-main: callers of folded functions, for gsymutil symbolize --stack. */
int ext_a(int x);
int ext_b(int x);
int tramp_call(int (*f)(int), int x);

/* (1) caller and folded callee in one executable */
__attribute__((noinline)) int local_a(int x) { return x * 5 + 11; }
__attribute__((noinline)) int local_b(int x) { return x * 5 + 11; }
__attribute__((noinline)) int use_local_a(int x) { return local_a(x) + 1; }
__attribute__((noinline)) int use_local_b(int x) { return local_b(x) + 2; }

/* (2) the folded callees in another shared object */
__attribute__((noinline)) int call_ext_a(int x) { return ext_a(x) + 3; }
__attribute__((noinline)) int call_ext_b(int x) { return ext_b(x) + 4; }

/* (3) through a trampoline in a third module */
__attribute__((noinline)) int via_tramp_a(int x) { return tramp_call(ext_a, x) + 5; }
__attribute__((noinline)) int via_tramp_b(int x) { return tramp_call(ext_b, x) + 6; }

/* (4) a merged caller: mid_x and mid_y fold because leaf_x and leaf_y do; each keeps its own
   call site in the debug information */
__attribute__((noinline)) int leaf_x(int x) { return x * 9 + 13; }
__attribute__((noinline)) int leaf_y(int x) { return x * 9 + 13; }
__attribute__((noinline)) int mid_x(int x) { return leaf_x(x) + 17; }
__attribute__((noinline)) int mid_y(int x) { return leaf_y(x) + 17; }
__attribute__((noinline)) int top_x(int x) { return mid_x(x) + 7; }
__attribute__((noinline)) int top_y(int x) { return mid_y(x) + 8; }

int main(int argc, char **argv) {
  (void)argv;
  return use_local_a(argc) + use_local_b(argc) + call_ext_a(argc) + call_ext_b(argc) + via_tramp_a(argc)
      + via_tramp_b(argc) + top_x(argc) + top_y(argc);
}
