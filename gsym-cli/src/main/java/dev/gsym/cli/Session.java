package dev.gsym.cli;

import dev.gsym.GsymFormatException;
import dev.gsym.TextBuffer;
import dev.gsym.elf.ElfFile;
import dev.gsym.elf.EmbeddedGsym;
import dev.gsym.object.FileKind;
import dev.gsym.read.GsymReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.util.Optional;

/**
 * The streams of one gsymutil invocation plus the reused output buffers. Everything printed on
 * stdout goes into one byte buffer ({@link #sb} through {@link #emit()}, ready-made bytes through
 * {@link #write}, picocli's text through {@link #writer()}), written out in pieces of at least
 * {@value #CHUNK} bytes and flushed only at the end, before an error message and when stdin input
 * runs dry.
 */
public final class Session {
  /** Stdout is written in pieces of at least this many bytes. */
  static final int CHUNK = 1 << 16;

  public final InputStream in;
  private final OutputStream out;
  /** Where the text goes: stdout, or stderr once stdout carries a conversion's output. */
  private OutputStream text;
  public final PrintStream err;
  /** Reused for every text result; {@link #emit()} writes and clears it. */
  public final StringBuilder sb = new StringBuilder(1 << 12);
  private final TextBuffer buf = new TextBuffer(2 * CHUNK);
  /** Set once --verbose has been parsed: errors then also print their stack trace. */
  public boolean verbose;
  /** Worker threads for batch lookups (--threads). */
  int threads = 1;

  Session(InputStream in, OutputStream out, PrintStream err) {
    this.in = in;
    this.out = out;
    this.text = out;
    this.err = err;
  }

  /**
   * For a conversion written to standard output ({@code -o -}): flushes the text printed so far,
   * sends all later text (the conversion summary, errors llvm prints on stdout) to stderr, and
   * returns stdout for the output file's bytes.
   */
  public OutputStream stdoutForData() {
    flush();
    text = err;
    return out;
  }

  /**
   * Writes {@link #sb} to stdout (buffered, encoded by {@link dev.gsym.ByteStrings}: escaped
   * bytes of names and paths are written as the original bytes) and clears it.
   */
  public void emit() {
    buf.append(sb);
    sb.setLength(0);
    if (buf.length() >= CHUNK) drain();
  }

  /**
   * Text appended to stdout (buffered, encoded as {@link #emit} encodes it), for writers that hand
   * out whole lines in pieces (GsymReader's dump).
   */
  public Appendable stdoutText() {
    return new Appendable() {
      @Override
      public Appendable append(CharSequence csq) {
        if (sb.length() > 0) emit(); // text queued before keeps its place
        buf.append(csq);
        if (buf.length() >= CHUNK) drain();
        return this;
      }

      @Override
      public Appendable append(CharSequence csq, int start, int end) {
        return append(csq.subSequence(start, end));
      }

      @Override
      public Appendable append(char c) {
        return append(String.valueOf(c));
      }
    };
  }

  /** Writes ready-made bytes to stdout (buffered). */
  public void write(TextBuffer bytes) {
    if (buf.length() == 0 && bytes.length() >= CHUNK) {
      try {
        text.write(bytes.array(), 0, bytes.length());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return;
    }
    buf.append(bytes);
    if (buf.length() >= CHUNK) drain();
  }

  private void drain() {
    try {
      buf.writeTo(text);
    } catch (IOException e) {
      buf.clear();
      throw new UncheckedIOException(e);
    }
  }

  public void flush() {
    drain();
    try {
      text.flush();
      if (text != out) out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A writer into the stdout buffer, for picocli's help and version text. */
  Writer writer() {
    return new Writer() {
      private final StringBuilder pending = new StringBuilder();

      @Override
      public void write(char[] cbuf, int off, int len) {
        pending.append(cbuf, off, len);
        // keep surrogate pairs together across writes
        int keep = pending.length() > 0 && Character.isHighSurrogate(pending.charAt(pending.length() - 1))
            ? 1 : 0;
        buf.append(pending.subSequence(0, pending.length() - keep));
        pending.delete(0, pending.length() - keep);
      }

      @Override
      public void flush() {
        Session.this.flush();
      }

      @Override
      public void close() {
        flush();
      }
    };
  }

  /**
   * Opens a GSYM file like llvm's {@code GsymReader::openFile}: "-" reads stdin; failures become
   * {@code <path>: <reason>} with llvm's wording (strerror text or the GSYM validation message),
   * except that an object file or Breakpad file is named as such, with the command converting it.
   */
  public GsymReader open(String path) {
    byte[] stdin = null;
    Path p = null;
    try {
      if (path.equals("-")) {
        stdin = in.readAllBytes();
        return GsymReader.of(stdin, "-");
      }
      if (path.isEmpty()) throw fileError(path, "No such file or directory", null);
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
      FileKind kind = stdin != null ? ForeignFile.of(stdin) : p != null ? ForeignFile.of(p) : FileKind.OTHER;
      if (kind == FileKind.ELF && p != null) {
        GsymReader embedded = openEmbedded(path, p);
        if (embedded != null) return embedded;
        String broken = elfProblem(p);
        if (broken != null) {
          throw new CliException(path + " is a truncated or corrupt ELF file (" + broken + "), not a GSYM file", 1,
              false, e);
        }
      }
      String foreign = ForeignFile.message(kind, path);
      if (foreign != null) throw new CliException(foreign, 1, false, e);
      throw fileError(path, e.detail(), e);
    }
  }

  /**
   * The GSYM in the {@code .gsym} section of the ELF file {@code p} ({@link EmbeddedGsym}), mapped
   * alone; null without one. A malformed one is an error naming the file, the section and the offset
   * within the file.
   */
  private static GsymReader openEmbedded(String path, Path p) {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      Optional<EmbeddedGsym.Location> at = EmbeddedGsym.find(p);
      if (at.isEmpty()) return null;
      return GsymReader.open(ch, at.get().offset(), at.get().size(), at.get().source(path));
    } catch (IOException e) {
      throw fileError(path, OutputFiles.reason(e), e);
    } catch (GsymFormatException e) {
      throw new CliException(e.getMessage(), 1, false, e);
    }
  }

  /**
   * Why the ELF file {@code p} cannot be read (so not converted either), or null if its headers
   * and section table are whole.
   */
  private static String elfProblem(Path p) {
    try (ElfFile elf = ElfFile.open(p)) {
      return null;
    } catch (GsymFormatException e) {
      return (e.offset() >= 0 ? String.format("offset 0x%08x: ", e.offset()) : "") + e.detail();
    } catch (IOException | RuntimeException e) {
      return null; // the generic message says what the file is
    }
  }

  /** {@code <path>: <reason>} on stderr, exit status 1. */
  public static CliException fileError(String path, String reason, Throwable cause) {
    return new CliException(path + ": " + reason, 1, false, cause);
  }
}
