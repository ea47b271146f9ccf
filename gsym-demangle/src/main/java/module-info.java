/** Symbol demangling as llvm-symbolizer prints it: Itanium C++, Rust v0 and D ({@code dev.gsym.demangle}). */
module dev.gsym.demangle {
  requires dev.gsym.core;

  exports dev.gsym.demangle;
}
