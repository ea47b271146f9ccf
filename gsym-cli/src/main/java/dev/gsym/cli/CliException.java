package dev.gsym.cli;

/**
 * Ends the command with {@code exitCode} after printing {@code message} (one line, no stack trace)
 * on stderr, or on stdout where llvm-gsymutil prints that error on stdout.
 */
public final class CliException extends RuntimeException {
  /**
   * The name printed where llvm-gsymutil prints its argv[0]: the first word of gsymutil's errors,
   * of its help and of its version.
   */
  public static final String TOOL_NAME = "gsymutil";

  public final int exitCode;
  final boolean toStdout;

  public CliException(String message, int exitCode, boolean toStdout, Throwable cause) {
    super(message, cause, false, false);
    this.exitCode = exitCode;
    this.toStdout = toStdout;
  }

  /** An error reported on stderr with exit status 1. */
  public static CliException stderr(String message) {
    return new CliException(message, 1, false, null);
  }

  /** {@link #stderr} of {@code "gsymutil: " + message}, as llvm-gsymutil words a usage error. */
  public static CliException tool(String message) {
    return stderr(TOOL_NAME + ": " + message);
  }

  /** An error llvm-gsymutil reports on stdout, with exit status 1. */
  public static CliException stdout(String message) {
    return new CliException(message, 1, true, null);
  }
}
