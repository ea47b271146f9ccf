package dev.gsym.object;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.macho.MachOFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opens a file as the kind of object file it is, by its magic number. */
public final class ObjectFiles {
  private ObjectFiles() {}

  /** What a file's first bytes say it is. */
  public enum Kind {
    /** An ELF file. */
    ELF,
    /** A thin Mach-O file. */
    MACH_O,
    /** A universal (fat) Mach-O file: see {@link dev.gsym.macho.MachOUniversal}. */
    UNIVERSAL,
    /** A COFF object (by its machine type) or a PE image ("MZ"; the PE signature is checked when opened). */
    COFF,
    /** Anything else: llvm's "The file was not recognized as a valid object file". */
    OTHER
  }

  /** The kind of {@code head} (a file's first 8 bytes or fewer). */
  public static Kind kind(byte[] head) {
    if (head.length >= 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F') return Kind.ELF;
    if (head.length >= 2 && head[0] == 'M' && head[1] == 'Z') return Kind.COFF;
    if (head.length >= 2) {
      // llvm's identify_magic: the COFF machine types it recognises
      int b0 = head[0] & 0xff, b1 = head[1] & 0xff;
      if ((b0 == 0x4c || b0 == 0xc4) && b1 == 0x01 || b0 == 0x64 && (b1 == 0x86 || b1 == 0xaa)) return Kind.COFF;
    }
    if (head.length < 4) return Kind.OTHER;
    int m = (head[0] & 0xff) << 24 | (head[1] & 0xff) << 16 | (head[2] & 0xff) << 8 | head[3] & 0xff;
    return switch (m) {
      case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe -> Kind.MACH_O;
      // fat magic; a byte 7 of 43 or more is a Java class file's version (llvm's identify_magic)
      case 0xcafebabe, 0xcafebabf -> head.length >= 8 && (head[7] & 0xff) < 43 ? Kind.UNIVERSAL : Kind.OTHER;
      default -> Kind.OTHER;
    };
  }

  /** The kind of the file at {@code path}. */
  public static Kind kind(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(8);
      while (b.hasRemaining() && ch.read(b) > 0) {
        // fill what the file has
      }
      byte[] head = new byte[b.position()];
      b.flip().get(head);
      return kind(head);
    }
  }

  /**
   * Opens {@code path} as an ELF, (thin) Mach-O or PE/COFF file.
   *
   * @throws GsymFormatException "The file was not recognized as a valid object file" for anything
   *     else (a universal file included: open its slices), or the file's own damage
   */
  public static ObjectFile open(Path path) throws IOException {
    return switch (kind(path)) {
      case ELF -> ElfFile.open(path);
      case MACH_O -> MachOFile.open(path);
      case COFF -> dev.gsym.coff.CoffFile.open(path);
      default -> throw new GsymFormatException(path.toString(), 0, "The file was not recognized as a valid object file");
    };
  }
}
