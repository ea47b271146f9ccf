/** Breakpad symbol files to GSYM and back ({@code dev.gsym.breakpad}). */
module dev.gsym.breakpad {
  requires transitive dev.gsym.core;
  requires transitive dev.gsym.object; // ElfModule.of(ElfFile, ...)
  requires dev.gsym.demangle; // BreakpadWriter writes names demangled, as dump_syms

  exports dev.gsym.breakpad;
}
