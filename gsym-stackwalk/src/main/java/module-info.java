/**
 * Stack walking of crashed processes ({@code dev.gsym.stackwalk}): every thread of a minidump or an ELF core file walked
 * with Breakpad's rules (context, CFI, STACK WIN, frame pointers, stack scanning) and symbolicated
 * from GSYM files, printed as Breakpad's {@code minidump_stackwalk} prints it.
 */
module dev.gsym.stackwalk {
  requires transitive dev.gsym.core;
  requires transitive dev.gsym.object;
  requires dev.gsym.breakpad;
  requires dev.gsym.convert;
  requires transitive dev.gsym.symbolize;
  requires tools.jackson.core; // StackwalkJson

  exports dev.gsym.stackwalk;
}
