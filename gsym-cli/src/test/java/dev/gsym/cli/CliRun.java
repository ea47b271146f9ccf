package dev.gsym.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One in-process gsymutil run: exit status and the captured stdout and stderr. */
record CliRun(int status, String out, String err) {
  static CliRun stdin(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = GsymUtil.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), o, e);
    }
    return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static CliRun run(String... args) {
    return stdin("", args);
  }
}
