package dev.gsym.cli.symbolize;

import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;

/**
 * {@code symbolize} as picocli sees it, when options of the top-level command come before it: its
 * arguments, taken as they are, go to {@link SymbolizeCommand}.
 */
public final class SymbolizeSubcommand implements CliCommand {
  private final Session session;
  final Args args = new Args();

  public SymbolizeSubcommand(Session session) {
    this.session = session;
  }

  @Override
  public Args args() {
    return args;
  }

  @Override
  public Integer call() {
    return new SymbolizeCommand(session, System.getenv()).run(args.values(Opt.SYMBOLIZE_ARGS));
  }
}
