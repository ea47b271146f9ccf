/**
 * The one conversion front door ({@code dev.gsym.convert}): {@code Converter.convert(Input,
 * ConvertOptions, Diagnostics, Sink)} turns an object file (its chosen architectures), a
 * {@code .dSYM} bundle, a Breakpad symbol file or a GSYM file into GSYM, and {@code DumpSyms}
 * writes a GSYM file or an ELF file's DWARF and symbols as a Breakpad symbol file. The
 * command line, the symbolizer, the service and the Spark jobs all convert through it. The
 * {@code --symtab-file} reader and the call-site YAML reader ({@code dev.gsym.convert.internal})
 * are not exported.
 */
module dev.gsym.convert {
  requires transitive dev.gsym.core; // Converter takes a dev.gsym.write.Diagnostics
  requires transitive dev.gsym.object; // Converter.Unit.object() is an ObjectFile
  requires transitive dev.gsym.dwarf; // Converted.summary() is a DwarfConverter.Summary
  requires transitive dev.gsym.breakpad; // Converted.breakpad() is a BreakpadTransformer.Result

  exports dev.gsym.convert;
}
