package dev.gsym.cli;

/**
 * The everyday dump, lookup and conversion command lines ({@code --lookup ADDR... FILE...},
 * {@code FILE...}, {@code --addresses-from-stdin}, {@code --dwarf FILE -o OUT}) parsed without
 * picocli. Building picocli's model from the annotations reflects over every command class and costs
 * more than the whole lookup (and picocli's Java 5 class files cannot go into the JDK's AOT cache),
 * so a one-shot lookup skips it, and a conversion starts ~0.1 s sooner.
 *
 * <p>{@link #parse} accepts only these arguments and returns {@code null} for anything else, which
 * the caller then hands to picocli: the long options {@code --address}, {@code --lookup}, {@code
 * --merged-functions-filter} (with a separate or {@code =}-attached value), {@code --verbose},
 * {@code --dump}, {@code --merged-functions} and {@code --addresses-from-stdin} (each at most
 * once); {@code --dwarf}/{@code --convert}, {@code --breakpad}, {@code --out-file}/{@code -o}
 * ({@code -o} with a separate value only) and {@code --num-threads}, each at most once, and
 * {@code --quiet}; and file names that do not start with {@code -} or {@code @}. Anything picocli treats
 * specially (short options, {@code --}, {@code @argument-files}, subcommand names, empty
 * arguments, repeated flags, a missing option value) falls back. For what is accepted the command
 * object gets the field values picocli would give it; {@code QuickArgsTest} compares both paths.
 */
final class QuickArgs {
  private QuickArgs() {}

  /** The top-level command filled from {@code args}, or {@code null} if picocli must parse them. */
  static GsymUtilCommand parse(String[] args, Session session) {
    GsymUtilCommand c = new GsymUtilCommand(session);
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-o")) {
        if (++i == args.length || !plain(args[i]) || c.convert.outFile != null) return null;
        c.convert.outFile = args[i];
        continue;
      }
      if (!plain(a)) return null;
      if (a.charAt(0) != '-') {
        c.files.add(a);
        continue;
      }
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
        if (!plain(value)) return null;
      }
      switch (name) {
        case "--address", "--lookup", "--merged-functions-filter" -> {
          if (value == null) {
            if (++i == args.length || !plain(args[i])) return null;
            value = args[i];
          }
          (name.equals("--merged-functions-filter") ? c.lookup.filters : c.addresses).add(value);
        }
        case "--verbose" -> {
          if (value != null || c.lookup.verbose) return null;
          c.lookup.verbose = true;
        }
        case "--merged-functions" -> {
          if (value != null || c.lookup.mergedFunctions) return null;
          c.lookup.mergedFunctions = true;
        }
        case "--dump" -> {
          if (value != null || c.dump) return null;
          c.dump = true;
        }
        case "--addresses-from-stdin" -> {
          if (value != null || c.fromStdin) return null;
          c.fromStdin = true;
        }
        case "--quiet" -> {
          if (value != null || c.convert.quiet) return null;
          c.convert.quiet = true;
        }
        case "--dwarf", "--convert", "--breakpad", "--out-file", "--num-threads" -> {
          if (value == null) {
            if (++i == args.length || !plain(args[i])) return null;
            value = args[i];
          }
          ConvertOptions o = c.convert;
          switch (name) {
            case "--dwarf", "--convert" -> {
              if (o.dwarf != null) return null;
              o.dwarf = value;
            }
            case "--breakpad" -> {
              if (o.breakpad != null) return null;
              o.breakpad = value;
            }
            case "--out-file" -> {
              if (o.outFile != null) return null;
              o.outFile = value;
            }
            default -> {
              if (o.numThreads != null) return null;
              o.numThreads = value;
            }
          }
        }
        default -> {
          return null;
        }
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
    if (a.equals("dump") || a.equals("lookup") || a.equals("convert") || a.equals("help")) return false;
    if (a.charAt(0) == '-') return a.length() > 2 && a.charAt(1) == '-';
    return true;
  }
}
