// Symbol-table rules of llvm's ObjectFileTransformer (built non-PIE by regenerate-extra.sh):
// - std::endl<char> is an undefined STT_FUNC whose address is taken, so a non-PIE link gives it
//   its PLT address as st_value (llvm's value for it is 0: not a function of this file);
// - pick_add is an STT_GNU_IFUNC (not a function for llvm);
// - abs_entry is an absolute (SHN_ABS) STT_FUNC inside .text (kept by llvm, st_value as is).
#include <iostream>

static int add_slow(int a, int b) { return a + b; }
static int add_fast(int a, int b) { return b + a; }

extern "C" {
void *resolve_add() { return reinterpret_cast<void *>(&add_fast); }
int pick_add(int a, int b) __attribute__((ifunc("resolve_add")));
}

// An absolute function symbol: main's address is not known to the assembler, so the value is the
// fixed start of .text that GNU ld gives a non-PIE x86-64 executable with these flags.
asm(".globl abs_entry\n.type abs_entry, @function\n.set abs_entry, 0x401000\n.size abs_entry, 1\n");

__attribute__((noinline)) int twice(int x) { return add_slow(x, x); }

int main(int argc, char **) {
  std::ostream &(*nl)(std::ostream &) = std::endl;
  std::cout << twice(argc) << pick_add(argc, 2) << nl;
  std::cout << "done" << std::endl;
  return 0;
}
