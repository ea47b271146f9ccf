package dev.gsym.cli;

import dev.gsym.io.GsymFormatException;
import dev.gsym.read.GsymReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The streams of one gsymutil invocation plus the reused output buffer. Everything printed on
 * stdout goes through {@link #sb} and {@link #emit()} into one buffered UTF-8 writer, flushed only
 * at the end, before an error message and when stdin input runs dry.
 */
final class Session {
  final InputStream in;
  private final Writer out;
  final PrintStream err;
  /** Reused for every result; {@link #emit()} writes and clears it. */
  final StringBuilder sb = new StringBuilder(1 << 12);
  /** Set once --verbose has been parsed: errors then also print their stack trace. */
  boolean verbose;

  Session(InputStream in, Writer out, PrintStream err) {
    this.in = in;
    this.out = out;
    this.err = err;
  }

  /** Writes the buffer to stdout (buffered) and clears it. */
  void emit() {
    try {
      out.append(sb);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    sb.setLength(0);
  }

  void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Opens a GSYM file like llvm's {@code GsymReader::openFile}: "-" reads stdin; failures become
   * {@code <path>: <reason>} with llvm's wording (strerror text or the GSYM validation message).
   */
  GsymReader open(String path) {
    try {
      if (path.equals("-")) return GsymReader.of(in.readAllBytes(), "-");
      if (path.isEmpty()) throw fileError(path, "No such file or directory", null);
      Path p;
      try {
        p = Path.of(path);
      } catch (InvalidPathException e) {
        throw fileError(path, "No such file or directory", e);
      }
      if (Files.isDirectory(p)) throw fileError(path, "Is a directory", null);
      return GsymReader.open(p);
    } catch (NoSuchFileException e) {
      throw fileError(path, "No such file or directory", e);
    } catch (AccessDeniedException e) {
      throw fileError(path, "Permission denied", e);
    } catch (FileSystemException e) {
      throw fileError(path, e.getReason() != null ? e.getReason() : "Input/output error", e);
    } catch (IOException e) {
      throw fileError(path, e.getMessage() != null ? e.getMessage() : e.toString(), e);
    } catch (GsymFormatException e) {
      throw fileError(path, e.detail(), e);
    }
  }

  /** {@code <path>: <reason>} on stderr, exit status 1. */
  static CliException fileError(String path, String reason, Throwable cause) {
    return new CliException(path + ": " + reason, 1, false, cause);
  }
}
