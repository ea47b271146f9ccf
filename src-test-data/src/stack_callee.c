/* libstackcallee.so: ext_a and ext_b are identical; --icf=all folds them (the callers are in
   another module and call them through the PLT). */
__attribute__((noinline)) int ext_a(int x) { return x * 3 + 7; }
__attribute__((noinline)) int ext_b(int x) { return x * 3 + 7; }
