/**
 * llvm-gsymutil's program: dump, lookup and conversion modes with llvm-gsymutil-22's output.
 *
 * <p>{@link dev.gsym.cli.gsymutil.CommandModel} builds picocli's model of the top-level command and
 * its subcommands from {@link dev.gsym.cli.Opt}; {@link dev.gsym.cli.gsymutil.QuickArgs} parses the
 * everyday command lines without picocli; both fill the command's {@link dev.gsym.cli.Args}. {@link
 * dev.gsym.cli.gsymutil.GsymUtilCommand} is the llvm-spelled top-level command that picks a mode from
 * the options given; {@link dev.gsym.cli.gsymutil.DumpCommand}, {@link
 * dev.gsym.cli.gsymutil.LookupCommand} and {@link dev.gsym.cli.gsymutil.ConvertCommand} are
 * subcommands for the same modes. {@link dev.gsym.cli.gsymutil.Modes}, {@link
 * dev.gsym.cli.gsymutil.StdinLookups} and {@link dev.gsym.cli.gsymutil.Symbolicator} produce dump and
 * lookup text; {@link dev.gsym.cli.gsymutil.Conversions} runs the conversion mode classes ({@link
 * dev.gsym.cli.gsymutil.DwarfConversion}, {@link dev.gsym.cli.gsymutil.BreakpadConversion}, {@link
 * dev.gsym.cli.gsymutil.ToBreakpadConversion}, {@link dev.gsym.cli.gsymutil.TranscodeConversion}). A
 * new option is one {@link dev.gsym.cli.Opt} entry listed by the commands that take it; a new
 * conversion mode is a {@link dev.gsym.cli.Opt.Kind#MODE} entry and a class run by {@code
 * Conversions}.
 */
package dev.gsym.cli.gsymutil;
