package dev.gsym.cli;

import dev.gsym.io.AtomicFile;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What every conversion mode does the same way with its input and output names: default output
 * names, {@code -o -} (standard output), refusing an output that is an input, and the wording of
 * file errors. The bytes are written through {@link dev.gsym.io.AtomicFile} by the writers.
 */
public final class OutputFiles {
  private OutputFiles() {}

  /** The output name that means standard output. */
  public static final String STDOUT = "-";

  /** {@code in} with {@code fromExt} replaced by {@code toExt}, or with {@code toExt} appended. */
  public static String defaultOutput(String in, String fromExt, String toExt) {
    return in.endsWith(fromExt) && in.length() > fromExt.length()
        ? in.substring(0, in.length() - fromExt.length()) + toExt : in + toExt;
  }

  /** The input's path; a bad name or a directory is an error naming it. */
  public static Path inputPath(String in) {
    Path p;
    try {
      p = Path.of(in);
    } catch (RuntimeException e) {
      throw Session.fileError(in, "No such file or directory", e);
    }
    if (Files.isDirectory(p)) throw Session.fileError(in, "Is a directory", null);
    return p;
  }

  public static CliException notToStdout(String option) {
    return CliException.tool("-o - (standard output) cannot be used with " + option);
  }

  /** PrintStream (our stdout) records write errors instead of throwing them. */
  public static void checkStdout(OutputStream data) throws IOException {
    if (data instanceof PrintStream ps && ps.checkError()) throw new IOException("error writing standard output");
  }

  public static Path outputPath(String out) {
    try {
      return Path.of(out);
    } catch (InvalidPathException e) {
      throw Session.fileError(out, "No such file or directory", e);
    }
  }

  /**
   * Refuses, before anything is read or written, an {@code output} that is the same file as {@code
   * other} by identity (device and inode: through symbolic and hard links, however spelled). With
   * {@code segments}, the existing files {@code OUTPUT-0x...} that --segment-size could replace are
   * checked instead of {@code output} itself.
   */
  public static void refuseOverwriting(String output, boolean segments, String role, String other) {
    if (output == null || other == null || output.equals(STDOUT) || other.equals(STDOUT)) return;
    Path out;
    Path in;
    try {
      out = Path.of(output);
      in = Path.of(other);
    } catch (InvalidPathException e) {
      return; // reported when the file is opened
    }
    if (!Files.exists(in)) {
      // two outputs, neither written yet: the same name, however spelled
      if (!segments && out.toAbsolutePath().normalize().equals(in.toAbsolutePath().normalize())) {
        throw CliException.tool("output file '" + output + "' is the " + role + " '"
            + other + "'; refusing to overwrite it");
      }
      return;
    }
    List<Path> candidates = List.of(out);
    if (segments) {
      Path dir = out.toAbsolutePath().getParent();
      String prefix = out.getFileName() + "-0x";
      try (Stream<Path> list = Files.list(dir)) {
        candidates = list.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
      } catch (IOException | UncheckedIOException e) {
        return; // no directory to write into: reported when saving
      }
    }
    for (Path c : candidates) {
      boolean same;
      try {
        same = Files.exists(c) && Files.isSameFile(c, in);
      } catch (IOException e) {
        same = false;
      }
      if (same) {
        throw CliException.tool("output file '" + (segments ? c : output) + "' is the "
            + role + " '" + other + "'; refusing to overwrite it");
      }
    }
  }

  /**
   * Fails before the input is read when {@code output} cannot be written, with the error the
   * writer would give at the end ({@code OUT: No such file or directory}): a file is created where
   * the writer puts its temporary file (beside the file {@code output}'s links finally name, or
   * beside {@code output} for {@code segments}) and removed at once (unlinked when opened: nothing
   * is left behind, whatever stops the process). An existing device or FIFO, written in place, is
   * only checked for write permission (opening a FIFO could block); standard output and a null
   * output are not checked. When the {@code input} file (not stdin) does not exist, nothing is
   * checked: that error comes first, as llvm reports it.
   */
  public static void checkWritable(String output, boolean segments, String input) {
    String reason = unwritable(output, segments, input);
    if (reason != null) throw Session.fileError(output, reason, null);
  }

  /** Why {@code output} cannot be written (see {@link #checkWritable}), or null. */
  public static String unwritable(String output, boolean segments, String input) {
    if (output == null || output.equals(STDOUT)) return null;
    try {
      if (input != null && !input.equals(STDOUT) && !Files.exists(Path.of(input))) return null;
    } catch (InvalidPathException e) {
      return null;
    }
    Path out;
    try {
      out = Path.of(output);
    } catch (InvalidPathException e) {
      return "No such file or directory";
    }
    Path dir;
    try {
      if (segments) {
        dir = out.toAbsolutePath().getParent();
      } else {
        if (Files.isDirectory(out)) return "Is a directory";
        if (Files.exists(out) && !Files.isRegularFile(out)) {
          return Files.isWritable(out) ? null : "Permission denied"; // written in place
        }
        dir = AtomicFile.temporaryDirectory(out);
      }
      try (FileChannel probe = AtomicFile.scratch(dir)) {
        return null;
      }
    } catch (IOException e) {
      return reason(e);
    }
  }

  /** "PATH: reason", as llvm words I/O errors. */
  public static CliException ioError(String path, IOException e) {
    return Session.fileError(path, reason(e), e);
  }

  public static String reason(IOException e) {
    if (e instanceof NoSuchFileException) return "No such file or directory";
    if (e instanceof AccessDeniedException) return "Permission denied";
    if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }
}
