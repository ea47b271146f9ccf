package dev.gsym.cli.stackwalk;

import dev.gsym.cli.Args;
import dev.gsym.cli.CliCommand;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;

/**
 * {@code stackwalk} as picocli sees it, when options of the top-level command come before it: its
 * arguments, taken as they are, go to {@link StackwalkCommand}.
 */
public final class StackwalkSubcommand implements CliCommand {
  private final Session session;
  final Args args = new Args();

  public StackwalkSubcommand(Session session) {
    this.session = session;
  }

  @Override
  public Args args() {
    return args;
  }

  @Override
  public Integer call() {
    return new StackwalkCommand(session, System.getenv()).run(args.values(Opt.STACKWALK_ARGS));
  }
}
