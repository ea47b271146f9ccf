/*
 * Functions whose ELF symbol names differ from their debug-info names, as glibc's do (crash reports
 * from libc.so.6 name __GI_abort, __libc_start_main_impl, __dladdr where llvm-symbolizer names
 * abort, __libc_start_main, dladdr): llvm-symbolizer names the outermost frame from the symbol
 * table when it reads DWARF, and gsymutil symbolize does too (docs/symbolize.md, "Names").
 * Built by regenerate-symnames.sh into symnames/bin/libsymnames.so with symnames.map.
 */

/* glibc's hidden_proto / hidden_def: the function is defined under an internal assembler name
   (hidden, so the linker makes it local), which DWARF records as its linkage name; the public name
   is a global alias at the same address and size. */
#define hidden_proto(name) extern __typeof(name) name __asm__("__GI_" #name) __attribute__((visibility("hidden")));
#define hidden_def(name) extern __typeof(name) __EI_##name __asm__(#name) __attribute__((alias("__GI_" #name)));

/* inlined into work: only the outermost frame takes the symbol table's name */
static inline __attribute__((always_inline)) int spread(int v) {
  int r = v;
  for (int i = 0; i < v; i++) r += i * v;
  return r;
}

int work(int x);
hidden_proto(work)

__attribute__((noinline)) int work(int x) { return spread(x) * 3 + 1; }
hidden_def(work)

/* glibc's versioned_symbol (__libc_start_main_impl as __libc_start_main@@GLIBC_2.34): the
   implementation is local, the exported name carries a version */
__attribute__((noinline)) int start_impl(int x) { return work(x) + 2; }
__asm__(".symver start_impl, start@@SYMNAMES_2");

/* glibc's weak_alias (__dladdr and dladdr): both names at one address, only the weak one exported */
__attribute__((noinline)) int __compute(int x) { return x ^ 0x5a; }
extern __typeof(__compute) compute __attribute__((weak, alias("__compute")));

/* a label inside a function: a local symbol of size 0, which names the addresses after it */
__attribute__((noinline)) int marked(int x) {
  int y = x * 5;
  __asm__ volatile("marked_tail:");
  return y + work(y);
}

/* only in .symtab: the same name as in DWARF */
static __attribute__((noinline)) int helper(int x) { return x - 7; }

int api(int x) { return helper(x) + marked(x) + start_impl(x) + compute(x); }
