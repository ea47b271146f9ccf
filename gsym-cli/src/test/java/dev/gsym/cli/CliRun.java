package dev.gsym.cli;

import dev.gsym.ByteStrings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

/**
 * One in-process gsymutil run: exit status and the captured stdout and stderr, with the streams
 * {@link GsymUtil#main} uses; the outputs are decoded by {@link ByteStrings}, so comparing them
 * compares bytes.
 */
public record CliRun(int status, String out, String err) {
  public static CliRun stdin(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, ByteStrings.CHARSET);
        PrintStream e = new PrintStream(err, true, ByteStrings.CHARSET)) {
      status = GsymUtil.run(args, new ByteArrayInputStream(ByteStrings.encode(stdin)), o, e);
    }
    return new CliRun(status, ByteStrings.decode(out.toByteArray()), ByteStrings.decode(err.toByteArray()));
  }

  public static CliRun run(String... args) {
    return stdin("", args);
  }

  /**
   * {@code stderr} without the lines gsymutil adds after an llvm-gsymutil-22 message (the hint
   * after "no functions to encode"), for comparing with llvm's stderr.
   */
  public static String llvmStderr(String stderr) {
    return stderr.replaceAll("(?m)^gsymutil: no functions in the debug info or the symbol table of .*\n", "");
  }

  /** A run with the environment {@code env} (instead of this process's) and stdin bytes. */
  public static CliRun withEnv(java.util.Map<String, String> env, byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, false, ByteStrings.CHARSET);
        PrintStream e = new PrintStream(err, true, ByteStrings.CHARSET)) {
      status = GsymUtil.run(args, new ByteArrayInputStream(stdin), o, e, true, env);
    }
    return new CliRun(status, ByteStrings.decode(out.toByteArray()), ByteStrings.decode(err.toByteArray()));
  }
}
