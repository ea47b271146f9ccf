/**
 * GSYM files: the on-disk structures ({@code dev.gsym.format}), reading and looking addresses up
 * ({@code dev.gsym.read}), creating files ({@code dev.gsym.write}) and the types those share
 * ({@code dev.gsym}). JDK only.
 *
 * <p>{@code dev.gsym.io} (byte input and output) and {@code dev.gsym.internal.concurrent} are
 * plumbing of the project's own modules, not API; the lookup caches ({@code dev.gsym.read.internal})
 * are not exported at all.
 *
 * <p>The codec entry points of {@code dev.gsym.format} ({@code decode}/{@code parse} from a {@code
 * Cursor}, {@code encode} to a {@code GsymWriter}) are public for the in-repo modules; code outside
 * cannot obtain a {@code Cursor} or {@code GsymWriter}, so it gets FunctionInfos from {@code
 * GsymReader} and hands them to {@code GsymCreator} (javac's "exports" lint is off for this module
 * for that reason).
 */
module dev.gsym.core {
  exports dev.gsym;
  exports dev.gsym.format;
  exports dev.gsym.read;
  exports dev.gsym.write;
  exports dev.gsym.unwind;
  exports dev.gsym.io to
      dev.gsym.object,
      dev.gsym.dwarf,
      dev.gsym.breakpad,
      dev.gsym.convert,
      dev.gsym.symbolize,
      dev.gsym.stackwalk,
      dev.gsym.cli;
  exports dev.gsym.internal.concurrent to
      dev.gsym.dwarf,
      dev.gsym.cli;
}
