package dev.gsym.convert;

import dev.gsym.GsymFormatException;
import dev.gsym.object.FileKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Converter} converts: an object file with the architectures chosen of it (or one
 * already open), a {@code .dSYM} bundle, a Breakpad symbol file (or Breakpad text from a stream)
 * or a GSYM file (or one already open). {@link #detect} tells which a path is.
 */
public sealed interface Input {

  /**
   * An ELF, Mach-O (thin or universal) or PE file. {@code archs} chooses the slices of a universal
   * file as {@code llvm-gsymutil --arch} does: a slice's architecture name ({@code arm64}, {@code
   * x86_64h}) or its CPU type's number; empty: every slice. A thin file ignores it.
   */
  record ObjectFile(Path path, List<String> archs) implements Input {
    /** Checks the path and copies the architectures. */
    public ObjectFile {
      Objects.requireNonNull(path, "path");
      archs = List.copyOf(archs);
    }

    /** The file with every architecture. */
    public ObjectFile(Path path) {
      this(path, List.of());
    }
  }

  /**
   * A {@code .dSYM} bundle: its DWARF files ({@link dev.gsym.macho.DsymBundle}), each converted as
   * an {@link ObjectFile} with {@code archs}.
   */
  record DsymBundle(Path path, List<String> archs) implements Input {
    /** Checks the path and copies the architectures. */
    public DsymBundle {
      Objects.requireNonNull(path, "path");
      archs = List.copyOf(archs);
    }

    /**
     * The bundle's DWARF files, in name order.
     *
     * @throws GsymFormatException (with llvm's message) when the bundle holds no DWARF file or the
     *     path is no {@code .dSYM} directory
     */
    public List<ObjectFile> members() throws IOException {
      List<Path> files = dev.gsym.macho.DsymBundle.members(path.toString());
      if (files.isEmpty()) throw new GsymFormatException(path.toString(), -1, "not a .dSYM bundle");
      return files.stream().map(f -> new ObjectFile(f, archs)).toList();
    }
  }

  /**
   * An object file already open, such as one read from memory (the vDSO a core file holds whole):
   * converted as one object of its own architecture, named {@code name} in messages. The caller
   * keeps it open until the conversion returns, and closes it.
   */
  record OpenObject(dev.gsym.object.ObjectFile object, String name) implements Input {
    /** Checks the values. */
    public OpenObject {
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(name, "name");
    }
  }

  /** A Breakpad symbol file. */
  record BreakpadFile(Path path) implements Input {
    /** Checks the path. */
    public BreakpadFile {
      Objects.requireNonNull(path, "path");
    }
  }

  /**
   * Breakpad symbol-file text read from a stream (standard input), named {@code name} in messages;
   * the stream is read to its end, not closed.
   */
  record BreakpadStream(java.io.InputStream in, String name) implements Input {
    /** Checks the values. */
    public BreakpadStream {
      Objects.requireNonNull(in, "in");
      Objects.requireNonNull(name, "name");
    }
  }

  /** A GSYM file, or an ELF file carrying one in its {@code .gsym} section. */
  record GsymFile(Path path) implements Input {
    /** Checks the path. */
    public GsymFile {
      Objects.requireNonNull(path, "path");
    }
  }

  /**
   * A GSYM already open (one read from standard input, or found by the caller's own rules), named
   * {@code name} in messages; the caller closes it after the conversion.
   */
  record OpenGsym(dev.gsym.read.GsymReader reader, String name) implements Input {
    /** Checks the values. */
    public OpenGsym {
      Objects.requireNonNull(reader, "reader");
      Objects.requireNonNull(name, "name");
    }
  }

  /** {@link #detect(Path, List)} with every architecture. */
  static Input detect(Path path) throws IOException {
    return detect(path, List.of());
  }

  /**
   * The input {@code path} is, by its contents ({@link FileKind}), not its name: a {@code .dSYM}
   * directory, a GSYM file, a Breakpad symbol file, or an object file (with {@code archs}).
   *
   * @throws GsymFormatException naming the file when it is none of these
   */
  static Input detect(Path path, List<String> archs) throws IOException {
    if (!dev.gsym.macho.DsymBundle.members(path.toString()).isEmpty()) return new DsymBundle(path, archs);
    FileKind kind = FileKind.sniff(path);
    if (kind.isGsym()) return new GsymFile(path);
    return switch (kind) {
      case BREAKPAD -> new BreakpadFile(path);
      case ELF, MACH_O, MACH_O_UNIVERSAL, COFF -> new ObjectFile(path, archs);
      default -> throw new GsymFormatException(path.toString(), 0,
          "not an object file, a .dSYM bundle, a Breakpad symbol file or a GSYM file");
    };
  }
}
