/**
 * The {@code gsymutil} command line, a drop-in for llvm-gsymutil's dump, lookup and conversion
 * modes.
 *
 * <p>Structure: {@link dev.gsym.cli.Opt} is the one table of options (names, value labels, help,
 * kinds). {@link dev.gsym.cli.GsymUtil#run} parses the everyday top-level command lines with {@link
 * dev.gsym.cli.QuickArgs} (no picocli, for start-up time) and all others with the picocli model
 * {@link dev.gsym.cli.CommandModel} builds from the table; both fill the command's {@link
 * dev.gsym.cli.Args}, and every error is mapped to llvm's message and exit status. {@link
 * dev.gsym.cli.GsymUtilCommand} is the llvm-spelled top-level command that picks a mode from the
 * options given; {@link dev.gsym.cli.DumpCommand}, {@link dev.gsym.cli.LookupCommand} and {@link
 * dev.gsym.cli.ConvertCommand} are subcommands for the same modes. {@link dev.gsym.cli.Modes},
 * {@link dev.gsym.cli.StdinLookups} and {@link dev.gsym.cli.Symbolicator} produce dump and lookup
 * text; {@link dev.gsym.cli.Conversions} runs the conversion mode classes ({@link
 * dev.gsym.cli.DwarfConversion}, {@link dev.gsym.cli.BreakpadConversion}, {@link
 * dev.gsym.cli.ToBreakpadConversion}), which share {@link dev.gsym.cli.OutputFiles}; {@link
 * dev.gsym.cli.Session} holds the streams and the single reused output buffer. A new option is one
 * {@link dev.gsym.cli.Opt} entry listed by the commands that take it; a new conversion mode is a
 * {@link dev.gsym.cli.Opt.Kind#MODE} entry and a class run by {@code Conversions}.
 *
 * <p>{@code gsymutil symbolize} is llvm-symbolizer's command line: its options are {@link
 * dev.gsym.cli.SymbolizeOpt} (llvm's spellings), parsed by {@link dev.gsym.cli.SymbolizeArgs} as
 * llvm's OptTable parses them, and {@link dev.gsym.cli.SymbolizeCommand} runs it (inputs {@link
 * dev.gsym.cli.SymbolizeInput}, modules {@link dev.gsym.cli.SymbolizeModules}, batches {@link
 * dev.gsym.cli.SymbolizeBatches}, output {@link dev.gsym.cli.SymbolizePrinter}).
 */
package dev.gsym.cli;
