package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;


/** {@code gsymutil dump FILE...}: the same as {@code gsymutil FILE...}. */
final class DumpCommand implements CliCommand {
  private final Session session;
  final Args args = new Args();

  @Override
  public Args args() {
    return args;
  }

  DumpCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = args.flag(Opt.VERBOSE);
    return Modes.dump(session, args.values(Opt.FILES).stream().filter(f -> !f.isEmpty()).toList());
  }
}
