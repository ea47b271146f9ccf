package dev.gsym.cli.gsymutil;

import dev.gsym.cli.Args;
import dev.gsym.cli.Opt;
import dev.gsym.cli.Session;
import java.util.HashMap;
import java.util.Map;

/**
 * The everyday top-level command lines ({@code --lookup ADDR... FILE...}, {@code FILE...}, {@code
 * --addresses-from-stdin}, {@code --dwarf FILE -o OUT}, ...) parsed without picocli. Loading picocli
 * and building its model costs more than a whole lookup (picocli's Java 5 class files cannot go
 * into the JDK's AOT cache: docs/performance.md, "One-shot lookups"), so a one-shot lookup skips it
 * and a conversion starts sooner.
 *
 * <p>It knows exactly the entries of {@link Opt#TOP}, with their {@link Opt} names and
 * kinds, so the two parsers cannot disagree on a spelling. {@link #parse} accepts a command line
 * only where the result is certain to be picocli's, and returns {@code null} otherwise (the caller
 * then hands it to picocli): long options with a separate or {@code =}-attached value, short
 * options ({@code -o}) with a separate value, each flag, value and conversion mode at most once and
 * one conversion mode at most, list options any number of times, and file names that do not start
 * with {@code -} or {@code @}. Anything picocli treats specially (help and version, {@code
 * --threads}, whose value picocli converts, {@code --}, {@code @argument-files}, subcommand names,
 * grouped short options, empty arguments, values that look like options, a missing value) falls
 * back. {@code QuickArgsTest} checks that both give the same {@link Args} and output.
 */
public final class QuickArgs {
  private QuickArgs() {}

  /** The top-level command filled from {@code args}, or {@code null} if picocli must parse them. */
  public static GsymUtilCommand parse(String[] args, Session session) {
    Map<String, Opt> byName = new HashMap<>();
    for (Opt o : Opt.TOP) for (String n : o.names) byName.put(n, o);
    GsymUtilCommand c = new GsymUtilCommand(session);
    Args a = c.args;
    boolean mode = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg;
      String value = null;
      Opt o = byName.get(arg);
      if (o != null && !arg.startsWith("--")) {
        // a short option: only with a separate value (picocli also reads "-ofile" and "-o=file")
        if (!o.takesValue()) return null;
      } else {
        if (!plain(arg)) return null;
        if (arg.charAt(0) != '-') {
          a.add(Opt.FILES, arg);
          continue;
        }
        int eq = arg.indexOf('=');
        if (eq > 0) {
          name = arg.substring(0, eq);
          value = arg.substring(eq + 1);
          if (!plain(value)) return null;
        }
        o = byName.get(name);
        if (o == null) return null;
      }
      switch (o.kind) {
        case FLAG -> {
          if (value != null || a.has(o)) return null;
          a.set(o, Boolean.TRUE);
          continue;
        }
        case OPTIONAL_VALUE -> {
          if (a.has(o)) return null;
          a.set(o, value == null ? Opt.FALLBACK : value);
          continue;
        }
        case VALUE, LIST, MODE -> {
          if (value == null) {
            if (++i == args.length || !plain(args[i])) return null;
            value = args[i];
          }
        }
        default -> {
          return null;
        }
      }
      switch (o.kind) {
        case VALUE -> {
          if (a.has(o)) return null;
          a.set(o, value);
        }
        case MODE -> {
          if (mode) return null;
          mode = true;
          a.add(o, value);
        }
        default -> a.add(o, value);
      }
    }
    return c;
  }

  /**
   * True for an argument picocli takes literally: not empty, not an {@code @file}, not a
   * subcommand name, not the {@code -} or {@code --} markers, not a short option or group.
   */
  private static boolean plain(String a) {
    if (a.isEmpty() || a.charAt(0) == '@') return false;
    if (Opt.SUBCOMMANDS.contains(a)) return false;
    if (a.charAt(0) == '-') return a.length() > 2 && a.charAt(1) == '-';
    return true;
  }
}
