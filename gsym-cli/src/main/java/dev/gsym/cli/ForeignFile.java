package dev.gsym.cli;

import dev.gsym.object.FileKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * What to say about a file handed to a dump or lookup instead of a GSYM file ({@link FileKind}
 * recognises it), so that the error says what the file is and how to convert it (rather than only
 * "not a GSYM file"): ELF, Mach-O (thin and universal), PE/COFF and Breakpad text.
 */
public final class ForeignFile {
  private ForeignFile() {}

  /** The kind of the file at {@code path}; OTHER if it cannot be read. */
  public static FileKind of(Path path) {
    try {
      return FileKind.sniff(path);
    } catch (IOException | RuntimeException e) {
      return FileKind.OTHER;
    }
  }

  /** The kind of the file whose bytes are {@code bytes} (stdin). */
  static FileKind of(byte[] bytes) {
    return FileKind.sniff(bytes);
  }

  /** What a file of {@code kind} is, as in "a Mach-O object file"; null for the kinds without a conversion to name. */
  public static String description(FileKind kind) {
    return switch (kind) {
      case ELF -> "an ELF object file";
      case MACH_O -> "a Mach-O object file";
      case MACH_O_UNIVERSAL -> "a Mach-O universal binary";
      case COFF -> "a PE/COFF executable";
      case BREAKPAD -> "a Breakpad symbol file";
      default -> null;
    };
  }

  /**
   * The error for a dump or lookup of {@code path} (or stdin for {@code "-"}): what the file is, and
   * the command that makes a GSYM file from it; null if {@link #description} has none for {@code kind}.
   */
  static String message(FileKind kind, String path) {
    String description = description(kind);
    if (description == null) return null;
    boolean stdin = path.equals("-");
    String name = stdin ? "standard input" : path;
    String file = stdin ? "FILE" : shellWord(path);
    String gsym = stdin ? "FILE.gsym" : shellWord(kind == FileKind.BREAKPAD && path.endsWith(".sym") && path.length() > 4
        ? path.substring(0, path.length() - 4) + ".gsym" : path + ".gsym");
    String convert = switch (kind) {
      case ELF -> "convert it first: gsymutil --dwarf " + file + " -o " + gsym + " (or embed the GSYM in a copy of it:"
          + " gsymutil --dwarf " + file + " --embed -o " + shellWord(path + ".embedded") + ", or gsymutil embed)";
      case MACH_O, MACH_O_UNIVERSAL -> "convert it first with llvm-gsymutil --convert " + file + " -o " + gsym
          + " (gsymutil converts the DWARF of ELF files only)";
      case COFF -> "write its symbols as a Breakpad symbol file (for instance with dump_syms) and convert"
          + " that: gsymutil --breakpad FILE.sym -o " + gsym;
      case BREAKPAD -> "convert it first: gsymutil --breakpad " + file + " -o " + gsym;
      default -> throw new AssertionError(kind);
    };
    return name + " is " + description + ", not a GSYM file; " + convert;
  }

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./+@%:=,-]+");

  /** {@code s} as one word for a POSIX shell: quoted when it holds anything special. */
  static String shellWord(String s) {
    return PLAIN.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
