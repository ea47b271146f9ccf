/**
 * (module, address) pairs to frames through a shared GSYM store fed by local debug files,
 * debuginfod servers and Breakpad symbol stores ({@code dev.gsym.symbolize}).
 */
module dev.gsym.symbolize {
  requires transitive dev.gsym.core; // Frame.location is a dev.gsym.read.SourceLine; OpenModule.reader()
  requires dev.gsym.object;
  requires dev.gsym.breakpad;
  requires dev.gsym.convert;
  requires transitive dev.gsym.demangle; // Symbolizer.Builder.demangle(Demangler)
  requires java.net.http;

  exports dev.gsym.symbolize;
}
