/** The {@code gsymutil} command. Exports nothing: it is run, not linked against. */
module dev.gsym.cli {
  requires dev.gsym.core;
  requires dev.gsym.object;
  requires dev.gsym.dwarf;
  requires dev.gsym.breakpad;
  requires dev.gsym.convert;
  requires dev.gsym.demangle;
  requires dev.gsym.symbolize;
  requires dev.gsym.profile;
  requires dev.gsym.serve;
  requires dev.gsym.stackwalk;
  requires info.picocli;
  requires tools.jackson.core;
  requires org.slf4j;
  requires jdk.unsupported; // sun.misc.Signal: serve stops cleanly on SIGTERM and Ctrl-C
}
