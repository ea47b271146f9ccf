/**
 * The {@code gsymutil} command line, a drop-in for llvm-gsymutil's dump and lookup modes.
 *
 * <p>Structure: {@link dev.gsym.cli.GsymUtil#run} parses the everyday dump and lookup command lines
 * with {@link dev.gsym.cli.QuickArgs} (no picocli model, for start-up time) and all others with
 * picocli, and maps every error to llvm's message and exit status; {@link dev.gsym.cli.GsymUtilCommand} is the llvm-spelled
 * top-level command that picks a mode from the options given; {@link dev.gsym.cli.DumpCommand} and
 * {@link dev.gsym.cli.LookupCommand} are subcommands for the same modes; {@link
 * dev.gsym.cli.Modes}, {@link dev.gsym.cli.StdinLookups} and {@link dev.gsym.cli.Symbolicator}
 * produce the text; {@link dev.gsym.cli.Session} holds the streams and the single reused output
 * buffer. A new mode (e.g. conversion) brings its own options class and a branch in {@code
 * GsymUtilCommand.call()}, plus optionally its own subcommand.
 */
package dev.gsym.cli;
