/**
 * The {@code gsymutil} command: its entry point and what its programs share.
 *
 * <p>{@link dev.gsym.cli.GsymUtil#run} is the whole command: it hands {@code symbolize} and {@code
 * flamegraph} to {@link dev.gsym.cli.symbolize} and {@code stackwalk} to {@link
 * dev.gsym.cli.stackwalk}, parses the everyday top-level command lines with {@link
 * dev.gsym.cli.gsymutil.QuickArgs} (no picocli, for start-up time) and all others with the picocli
 * model {@link dev.gsym.cli.gsymutil.CommandModel} builds (llvm-gsymutil's modes and subcommands, and
 * {@code serve}, {@link dev.gsym.cli.serve}), and maps every error to llvm's message and exit
 * status. It is the only class here that names the program packages; they use this one.
 *
 * <p>Shared: {@link dev.gsym.cli.Opt} is the one table of the picocli-parsed options (names, value
 * labels, help, kinds) and {@link dev.gsym.cli.Args} a command's values by {@code Opt}; {@link
 * dev.gsym.cli.Session} holds the streams and the single reused output buffer; {@link
 * dev.gsym.cli.CliException} is the one error vocabulary; {@link dev.gsym.cli.OutputFiles} is what
 * the writing commands share about output names; {@link dev.gsym.cli.ChunkPipeline} is the ordered
 * batch pipeline of lookups and {@code symbolize}. {@link dev.gsym.cli.AotTraining} is the build's
 * AOT cache training run.
 */
package dev.gsym.cli;
