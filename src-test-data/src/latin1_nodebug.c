/* Compiled without debug information for regenerate-latin1.sh: these functions are known only
   from the symbol table, under names that are not UTF-8. */
__attribute__((noinline)) int nd_latin1(int x) __asm__("sans_d\xe9" "bug");
__attribute__((noinline)) int nd_latin1(int x) { return x * 13 + 1; }
__attribute__((noinline)) int nd_trunc(int x) __asm__("\xe2\x82");
__attribute__((noinline)) int nd_trunc(int x) { return nd_latin1(x) ^ 0x33; }
int sans_debug_total(int x) { return nd_trunc(x) + nd_latin1(x + 1); }
