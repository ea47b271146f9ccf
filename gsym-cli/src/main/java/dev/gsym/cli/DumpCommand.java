package dev.gsym.cli;

import java.util.concurrent.Callable;

/** {@code gsymutil dump FILE...}: the same as {@code gsymutil FILE...}. */
final class DumpCommand implements Callable<Integer> {
  private final Session session;
  final Args args = new Args();

  DumpCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = args.flag(Opt.VERBOSE);
    return Modes.dump(session, args.values(Opt.FILES).stream().filter(f -> !f.isEmpty()).toList());
  }
}
