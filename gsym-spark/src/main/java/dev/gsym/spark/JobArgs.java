package dev.gsym.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * The command line of the two entry points: {@code --name VALUE}, {@code --name=VALUE} and flags;
 * {@code --master URL} and repeatable {@code --conf KEY=VALUE} for the Spark session.
 */
final class JobArgs {
  /** A bad command line: its message is printed alone, with exit status 2. */
  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  private final Map<String, String> values = new LinkedHashMap<>();
  private final List<String> confs = new ArrayList<>();
  private final Set<String> flags;

  /**
   * @param options options that take a value (without the leading dashes)
   * @param flags options that do not
   */
  JobArgs(String[] args, Set<String> options, Set<String> flags) {
    this.flags = flags;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) throw new UsageException("unexpected argument '" + a + "'");
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (flags.contains(name)) {
        if (value != null) throw new UsageException("--" + name + " takes no value");
        values.put(name, "true");
        continue;
      }
      if (!options.contains(name) && !name.equals("master") && !name.equals("conf")) {
        throw new UsageException("unknown option '--" + name + "'");
      }
      if (value == null) {
        if (i + 1 >= args.length) throw new UsageException("--" + name + ": missing value");
        value = args[++i];
      }
      if (name.equals("conf")) {
        if (value.indexOf('=') <= 0) throw new UsageException("--conf: expected KEY=VALUE, got '" + value + "'");
        confs.add(value);
      } else {
        values.put(name, value);
      }
    }
  }

  boolean flag(String name) {
    return values.containsKey(name) && flags.contains(name);
  }

  String get(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String required(String name) {
    String v = values.get(name);
    if (v == null) throw new UsageException("--" + name + " is required");
    return v;
  }

  int integer(String name, int fallback, int min) {
    String v = values.get(name);
    if (v == null) return fallback;
    try {
      int n = Integer.parseInt(v);
      if (n < min) throw new UsageException("--" + name + ": expected an integer >= " + min + ", got '" + v + "'");
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + ": expected an integer, got '" + v + "'");
    }
  }

  <E extends Enum<E>> E choice(String name, Class<E> type, E fallback) {
    String v = values.get(name);
    if (v == null) return fallback;
    for (E e : type.getEnumConstants()) if (e.name().equalsIgnoreCase(v)) return e;
    throw new UsageException("--" + name + ": unknown value '" + v + "'");
  }

  /**
   * The session: {@code --master} if given, else spark-submit's, else {@code local[*]} (run
   * directly with {@code java}, as bench/spark-local.sh does).
   */
  SparkSession session(String appName) {
    SparkSession.Builder b = SparkSession.builder().appName(appName);
    String master = values.get("master");
    if (master != null) b.master(master);
    else if (System.getProperty("spark.master") == null) b.master("local[*]");
    for (String c : confs) {
      int eq = c.indexOf('=');
      b.config(c.substring(0, eq), c.substring(eq + 1));
    }
    return b.getOrCreate();
  }

  /** Runs {@code body}, printing usage errors and failures as one line (with --verbose, the stack trace). */
  static int run(String tool, String[] args, java.util.function.Function<String[], Integer> body) {
    boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
    try {
      return body.apply(args);
    } catch (UsageException e) {
      System.err.println(tool + ": error: " + e.getMessage() + " (--help for usage)");
      return 2;
    } catch (RuntimeException e) {
      System.err.println(tool + ": error: " + rootMessage(e));
      if (verbose) e.printStackTrace();
      return 1;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t && (t.getMessage() == null || t instanceof java.io.UncheckedIOException)) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
