package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;

/** {@code gsymutil embed BINARY GSYM -o OUT}: {@link EmbedConversion}. */
final class EmbedCommand implements CliCommand {
  private final Session session;
  final Args args = new Args();

  @Override
  public Args args() {
    return args;
  }

  EmbedCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = args.flag(Opt.VERBOSE);
    return EmbedConversion.run(session, args);
  }
}
