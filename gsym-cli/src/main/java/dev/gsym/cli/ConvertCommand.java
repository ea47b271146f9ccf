package dev.gsym.cli;

import java.util.concurrent.Callable;

/**
 * {@code gsymutil convert --dwarf FILE [-o OUT]}, {@code --breakpad SYM [-o OUT]} and
 * {@code --to-breakpad GSYM|ELF [-o OUT]}: the conversion modes of {@link Conversions}.
 */
final class ConvertCommand implements Callable<Integer> {
  private final Session session;
  final Args args = new Args();

  ConvertCommand(Session session) {
    this.session = session;
  }

  @Override
  public Integer call() {
    session.verbose = args.flag(Opt.VERBOSE);
    return Conversions.run(session, args);
  }
}
