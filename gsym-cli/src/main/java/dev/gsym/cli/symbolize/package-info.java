/**
 * {@code gsymutil symbolize}, llvm-symbolizer's command line, and the profile commands ({@code
 * symbolize --pprof}, {@code flamegraph}).
 *
 * <p>Its options are {@link dev.gsym.cli.symbolize.SymbolizeOpt} (llvm's spellings), parsed by
 * {@link dev.gsym.cli.symbolize.SymbolizeArgs} as llvm's OptTable parses them, and {@link
 * dev.gsym.cli.symbolize.SymbolizeCommand} runs it (inputs {@link
 * dev.gsym.cli.symbolize.SymbolizeInput}, modules {@link dev.gsym.cli.symbolize.SymbolizeModules},
 * batches {@link dev.gsym.cli.symbolize.SymbolizeBatches}, output {@link
 * dev.gsym.cli.symbolize.SymbolizePrinter}); {@link dev.gsym.cli.symbolize.ProfileCommand}
 * symbolizes profiles.
 */
package dev.gsym.cli.symbolize;
