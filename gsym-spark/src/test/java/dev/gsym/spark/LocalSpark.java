package dev.gsym.spark;

import dev.gsym.cli.GsymUtil;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.SparkSession;

/** The tests' Spark: one local[2] session per test JVM (starting one takes seconds), and gsymutil in-process. */
final class LocalSpark {
  private LocalSpark() {}

  private static SparkSession session;

  static synchronized SparkSession get() {
    if (session == null) {
      session = SparkSession.builder().master("local[2]").appName("gsym-spark tests")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "8")
          .getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
    }
    return session;
  }

  /** A gsymutil run's exit status and stderr. */
  record Run(int status, String out, String err) {}

  /** Runs gsymutil in-process. */
  static Run run(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = GsymUtil.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), o, e);
    }
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** What gsymutil prints for {@code args} with {@code stdin}; fails on a non-zero exit status. */
  static String gsymutil(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = GsymUtil.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), o, e);
    }
    if (status != 0) {
      throw new AssertionError("gsymutil " + String.join(" ", args) + ": exit " + status + ": " + err.toString(StandardCharsets.UTF_8));
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
