/* Names and paths that are not UTF-8 (GSYM strings are bytes). Built by regenerate-latin1.sh with
   the source directory mapped to "/gsym-test/caf\xE9" (DW_AT_comp_dir and every path hold byte
   0xE9). The #line names below put Latin-1 file names into the line table, and the asm labels put
   arbitrary bytes into linkage names (DWARF) and symbol names: a lone Latin-1 byte, a truncated
   sequence, an overlong encoding, an encoded surrogate, a stray continuation byte, 0xFF, and valid
   2- and 4-byte UTF-8 for contrast. */
extern "C" int sans_debug_total(int x);  // latin1_nodebug.c, no debug info: named from .symtab

static int counter;

#line 12 "caf\351.cpp"
// static: DW_AT_name "helper" in DWARF, "h\xe9lper" only in .symtab
__attribute__((noinline)) static int helper(int x) __asm__("h\xe9lper");
__attribute__((noinline)) static int helper(int x) {
  counter += x;
  return counter * 3 + 1;
}

#line 1 "d\351j\340/inl\351.h"
inline __attribute__((always_inline)) int inl_latin1(int x) __asm__("inl\xe9");
inline __attribute__((always_inline)) int inl_latin1(int x) {
  return helper(x) + 2;
}
inline __attribute__((always_inline)) int inl_trunc(int x) __asm__("trunc\xc3");
inline __attribute__((always_inline)) int inl_trunc(int x) {
  return inl_latin1(x ^ 5) * 7;
}

#line 40 "caf\351.cpp"
__attribute__((noinline)) int overlong(int x) __asm__("overlong\xc0\xaf");
__attribute__((noinline)) int overlong(int x) { return inl_trunc(x) + 11; }
__attribute__((noinline)) int surrogate(int x) __asm__("surrogate\xed\xa0\x80");
__attribute__((noinline)) int surrogate(int x) { return overlong(x) - inl_latin1(x); }
__attribute__((noinline)) int stray(int x) __asm__("stray\x80\xff");
__attribute__((noinline)) int stray(int x) { return surrogate(x + 1) * 2; }
__attribute__((noinline)) int emoji(int x) __asm__("smile\xf0\x9f\x98\x80");
__attribute__((noinline)) int emoji(int x) { return stray(x) + inl_trunc(x); }

// valid UTF-8 (a universal character name): mangled _Z5caf\xc3\xa9i
__attribute__((noinline)) int caf\u00e9(int x) { return emoji(x) + sans_debug_total(x); }

int main(int argc, char **argv) {
  (void)argv;
  return caf\u00e9(argc) & 0x7f;
}
