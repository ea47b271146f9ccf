package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;


/**
 * {@code gsymutil convert --dwarf FILE [-o OUT]}, {@code --breakpad SYM [-o OUT]} and
 * {@code --to-breakpad GSYM|ELF [-o OUT]}: the conversion modes of {@link Conversions}.
 */
final class ConvertCommand implements CliCommand {
  private final Session session;
  final Args args = new Args();

  @Override
  public Args args() {
    return args;
  }

  ConvertCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = args.flag(Opt.VERBOSE);
    return Conversions.run(session, args);
  }
}
