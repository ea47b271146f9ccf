package dev.gsym.object;

import dev.gsym.format.Header;
import dev.gsym.format.HeaderV2;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a file is, from its first bytes: the one place that tells the kinds of file apart by their
 * magic numbers (llvm's {@code identify_magic} for the object files), for every module that takes
 * a file of more than one kind.
 */
public enum FileKind {
  /** GSYM version 1 (LLVM 22), either byte order. */
  GSYM_V1,
  /** GSYM version 2 (LLVM main), either byte order. */
  GSYM_V2,
  /** GSYM's magic with another version, or too short to hold one: the reader's error says which. */
  GSYM_OTHER_VERSION,
  ELF,
  /** A thin Mach-O file, 32 or 64-bit, either byte order. */
  MACH_O,
  /** A universal (fat or fat64) Mach-O file: see {@link dev.gsym.macho.MachOUniversal}. */
  MACH_O_UNIVERSAL,
  /** A COFF object (by the machine types llvm recognises) or a PE image ("MZ" and its PE signature). */
  COFF,
  /** An {@code ar} archive, regular or thin. */
  ARCHIVE,
  /** A Breakpad symbol file: its first non-blank line starts with one of its record keywords. */
  BREAKPAD,
  /** A minidump ("MDMP"). */
  MINIDUMP,
  /** Anything else: llvm's "The file was not recognized as a valid object file". */
  OTHER;

  /** Bytes {@link #sniff(Path)} reads: enough for a PE signature and blank lines before a Breakpad record. */
  public static final int HEAD = 4096;

  /** Record keywords that may start a Breakpad symbol file (Breakpad's processor needs no MODULE first). */
  private static final String[] BREAKPAD_RECORDS = {"MODULE ", "FILE ", "FUNC ", "PUBLIC ", "INFO ", "STACK ", "INLINE_ORIGIN "};

  /** True for the three GSYM kinds. */
  public boolean isGsym() {
    return this == GSYM_V1 || this == GSYM_V2 || this == GSYM_OTHER_VERSION;
  }

  /** True for the kinds {@link ObjectFiles#open} opens: ELF, thin Mach-O and COFF. */
  public boolean isObjectFile() {
    return this == ELF || this == MACH_O || this == COFF;
  }

  /**
   * The kind of a file whose first bytes are {@code head} (as many as there are, up to {@link
   * #HEAD}; a PE image is recognised only if its signature lies within them, as llvm reads it).
   */
  public static FileKind sniff(byte[] head) {
    return sniff(head, head.length);
  }

  /** As {@link #sniff(byte[])} on {@code head[0, length)}. */
  public static FileKind sniff(byte[] head, int length) {
    if (length >= 4) {
      int be = u8(head, 0) << 24 | u8(head, 1) << 16 | u8(head, 2) << 8 | u8(head, 3);
      boolean le = Integer.reverseBytes(be) == Header.MAGIC;
      if (le || be == Header.MAGIC) {
        if (length < 6) return GSYM_OTHER_VERSION;
        int version = le ? u8(head, 4) | u8(head, 5) << 8 : u8(head, 4) << 8 | u8(head, 5);
        return version == Header.VERSION ? GSYM_V1 : version == HeaderV2.VERSION ? GSYM_V2 : GSYM_OTHER_VERSION;
      }
      switch (be) {
        case 0x7f454c46: // "\x7fELF"
          return ELF;
        case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe: // MH_MAGIC(_64), either byte order
          return MACH_O;
        case 0xcafebabe, 0xcafebabf:
          // FAT_MAGIC(_64), shared with Java class files, whose version is in byte 7 where a
          // universal file has its small architecture count: 43 or more is a class file
          return length >= 8 && u8(head, 7) < 43 ? MACH_O_UNIVERSAL : OTHER;
        case 0x4d444d50: // "MDMP"
          return MINIDUMP;
        default:
          break;
      }
    }
    if (length >= 2) {
      int b0 = u8(head, 0), b1 = u8(head, 1);
      if (b0 == 'M' && b1 == 'Z') return isPeImage(head, length) ? COFF : OTHER;
      // the COFF machine types llvm's identify_magic recognises
      if ((b0 == 0x4c || b0 == 0xc4) && b1 == 0x01 || b0 == 0x64 && (b1 == 0x86 || b1 == 0xaa)) return COFF;
    }
    if (length >= 8 && (startsWith(head, length, 0, "!<arch>\n") || startsWith(head, length, 0, "!<thin>\n"))) {
      return ARCHIVE;
    }
    int line = 0;
    while (line < length && (head[line] == '\n' || head[line] == '\r' || head[line] == ' ' || head[line] == '\t')) line++;
    for (String r : BREAKPAD_RECORDS) if (startsWith(head, length, line, r)) return BREAKPAD;
    return OTHER;
  }

  /**
   * The kind of the file at {@code path}, from its first {@link #HEAD} bytes (and, for an "MZ" file
   * whose PE signature lies beyond them, the 4 bytes of the signature).
   */
  public static FileKind sniff(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(HEAD);
      fill(ch, b, 0);
      byte[] head = b.array();
      int n = b.position();
      if (n >= 0x40 && head[0] == 'M' && head[1] == 'Z') {
        long pe = Integer.toUnsignedLong(u8(head, 0x3c) | u8(head, 0x3d) << 8 | u8(head, 0x3e) << 16 | u8(head, 0x3f) << 24);
        if (pe + 4 > n) {
          ByteBuffer sig = ByteBuffer.allocate(4);
          fill(ch, sig, pe);
          return sig.position() == 4 && isPeSignature(sig.array(), 0) ? COFF : OTHER;
        }
      }
      return sniff(head, n);
    }
  }

  private static void fill(FileChannel ch, ByteBuffer b, long at) throws IOException {
    while (b.hasRemaining()) {
      int r = ch.read(b, at + b.position());
      if (r <= 0) break;
    }
  }

  /** "MZ": the PE signature is at the offset stored at 0x3c. */
  private static boolean isPeImage(byte[] head, int length) {
    if (length < 0x40) return false;
    long pe = Integer.toUnsignedLong(u8(head, 0x3c) | u8(head, 0x3d) << 8 | u8(head, 0x3e) << 16 | u8(head, 0x3f) << 24);
    return pe + 4 <= length && isPeSignature(head, (int) pe);
  }

  private static boolean isPeSignature(byte[] b, int at) {
    return b[at] == 'P' && b[at + 1] == 'E' && b[at + 2] == 0 && b[at + 3] == 0;
  }

  private static boolean startsWith(byte[] b, int length, int at, String s) {
    if (length - at < s.length()) return false;
    for (int i = 0; i < s.length(); i++) if (b[at + i] != s.charAt(i)) return false;
    return true;
  }

  private static int u8(byte[] b, int i) {
    return b[i] & 0xff;
  }
}
