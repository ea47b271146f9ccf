/**
 * Profiles ({@code dev.gsym.profile}): pprof profiles and {@code perf} samples symbolized by
 * build-id through the {@code dev.gsym.symbolize} Symbolizer, collapsed stacks and flame graphs.
 */
@SuppressWarnings("requires-automatic") // protobuf-java has an Automatic-Module-Name only
module dev.gsym.profile {
  requires dev.gsym.core;
  requires dev.gsym.object;
  requires transitive dev.gsym.symbolize; // ProfileSymbolizer takes a Symbolizer
  requires dev.gsym.demangle;
  requires com.google.protobuf;

  exports dev.gsym.profile;
}
