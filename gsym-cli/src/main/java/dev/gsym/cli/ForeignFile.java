package dev.gsym.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Pattern;

/**
 * Kinds of files users hand to a dump or lookup instead of a GSYM file, recognised by their magic
 * numbers so that the error says what the file is and how to convert it (rather than only "not a
 * GSYM file"): ELF, Mach-O (thin, universal and 64-bit universal), PE/COFF and Breakpad text.
 */
enum ForeignFile {
  ELF("an ELF object file"),
  MACH_O("a Mach-O object file"),
  MACH_O_UNIVERSAL("a Mach-O universal binary"),
  PE("a PE/COFF executable"),
  BREAKPAD("a Breakpad symbol file");

  private static final int HEAD = 64;

  private final String description;

  ForeignFile(String description) {
    this.description = description;
  }

  /** What the file is, as in "a Mach-O object file". */
  String description() {
    return description;
  }

  /** The kind of the file at {@code path}, or null if it is none of these (or cannot be read). */
  static ForeignFile of(Path path) {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      ByteBuffer head = ByteBuffer.allocate(HEAD);
      while (head.hasRemaining() && ch.read(head) > 0) {
        // fill what the file has
      }
      head.flip();
      ForeignFile kind = identify(head);
      if (kind != null || !isDosStub(head)) return kind;
      // "MZ": the PE signature is at the offset stored at 0x3c
      long peAt = Integer.toUnsignedLong(head.order(ByteOrder.LITTLE_ENDIAN).getInt(0x3c));
      ByteBuffer sig = ByteBuffer.allocate(4);
      while (sig.hasRemaining() && ch.read(sig, peAt + sig.position()) > 0) {
        // read the 4 signature bytes
      }
      return sig.flip().remaining() == 4 && isPeSignature(sig, 0) ? PE : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The kind of the file whose bytes are {@code bytes} (stdin), or null. */
  static ForeignFile of(byte[] bytes) {
    ByteBuffer all = ByteBuffer.wrap(bytes);
    ForeignFile kind = identify(all);
    if (kind != null || !isDosStub(all)) return kind;
    long peAt = Integer.toUnsignedLong(all.order(ByteOrder.LITTLE_ENDIAN).getInt(0x3c));
    return peAt + 4 <= bytes.length && isPeSignature(all, (int) peAt) ? PE : null;
  }

  /** From the first bytes (position 0 to limit); PE needs a second read, see {@link #isDosStub}. */
  static ForeignFile identify(ByteBuffer head) {
    if (head.remaining() < 4) return null;
    int magic = head.order(ByteOrder.BIG_ENDIAN).getInt(0);
    switch (magic) {
      case 0x7f454c46: // "\x7fELF"
        return ELF;
      case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe: // MH_MAGIC(_64), either byte order
        return MACH_O;
      case 0xcafebabf: // FAT_MAGIC_64
        return MACH_O_UNIVERSAL;
      case 0xcafebabe:
        // FAT_MAGIC, shared with Java class files, whose major version (bytes 6-7) is at least 45
        // where a universal binary has its small architecture count (llvm's identify_magic)
        return head.remaining() >= 8 && (head.get(7) & 0xff) < 45 ? MACH_O_UNIVERSAL : null;
      default:
        break;
    }
    byte[] module = "MODULE ".getBytes(StandardCharsets.US_ASCII);
    if (head.remaining() >= module.length) {
      boolean text = true;
      for (int i = 0; i < module.length; i++) text &= head.get(i) == module[i];
      if (text) return BREAKPAD;
    }
    return null;
  }

  private static boolean isDosStub(ByteBuffer head) {
    return head.remaining() >= 0x40 && head.get(0) == 'M' && head.get(1) == 'Z';
  }

  private static boolean isPeSignature(ByteBuffer b, int at) {
    return b.get(at) == 'P' && b.get(at + 1) == 'E' && b.get(at + 2) == 0 && b.get(at + 3) == 0;
  }

  /**
   * The error for a dump or lookup of {@code path} (or stdin for {@code "-"}): what the file is, and
   * the command that makes a GSYM file from it.
   */
  String message(String path) {
    boolean stdin = path.equals("-");
    String name = stdin ? "standard input" : path;
    String file = stdin ? "FILE" : shellWord(path);
    String gsym = stdin ? "FILE.gsym" : shellWord(this == BREAKPAD && path.endsWith(".sym") && path.length() > 4
        ? path.substring(0, path.length() - 4) + ".gsym" : path + ".gsym");
    String convert = switch (this) {
      case ELF -> "convert it first: gsymutil --dwarf " + file + " -o " + gsym + " (or embed the GSYM in a copy of it:"
          + " gsymutil --dwarf " + file + " --embed -o " + shellWord(path + ".embedded") + ", or gsymutil embed)";
      case MACH_O, MACH_O_UNIVERSAL -> "convert it first with llvm-gsymutil --convert " + file + " -o " + gsym
          + " (gsymutil converts the DWARF of ELF files only)";
      case PE -> "write its symbols as a Breakpad symbol file (for instance with dump_syms) and convert"
          + " that: gsymutil --breakpad FILE.sym -o " + gsym;
      case BREAKPAD -> "convert it first: gsymutil --breakpad " + file + " -o " + gsym;
    };
    return name + " is " + description + ", not a GSYM file; " + convert;
  }

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./+@%:=,-]+");

  /** {@code s} as one word for a POSIX shell: quoted when it holds anything special. */
  static String shellWord(String s) {
    return PLAIN.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
