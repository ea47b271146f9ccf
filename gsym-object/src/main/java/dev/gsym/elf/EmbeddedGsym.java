package dev.gsym.elf;

import dev.gsym.GsymFormatException;
import dev.gsym.io.AtomicFile;
import dev.gsym.object.FileKind;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * A GSYM carried inside an ELF file in a section named {@code .gsym} (the GSYM proposal's layout:
 * the section's bytes are exactly a standalone GSYM file, its offsets relative to the section's
 * start). {@link #find} locates it for readers ({@code GsymReader.open(FileChannel, offset, size,
 * source)} maps just that window); {@link #write} writes a copy of an ELF file with one (through
 * {@link ElfSectionWriter}), after {@link #matchesBuildId} has checked that it belongs there.
 */
public final class EmbeddedGsym {
  private EmbeddedGsym() {}

  /** The section name in ELF files. */
  public static final String SECTION = ".gsym";

  /** Where the GSYM bytes are in the file. */
  public record Location(long offset, long size) {
    /** The name errors about the embedded GSYM give as their source: the file and the section. */
    public String source(String file) {
      return file + " (section " + SECTION + ")";
    }
  }

  /**
   * The {@code .gsym} section of the ELF file at {@code path}; empty if the file is not an ELF file,
   * its headers cannot be read, or it has no such section.
   *
   * @throws GsymFormatException if the ELF file is malformed, or its {@code .gsym} section has no
   *     bytes in the file ({@code SHT_NOBITS}) or is compressed
   */
  public static Optional<Location> find(Path path) throws IOException {
    if (FileKind.sniff(path) != FileKind.ELF) return Optional.empty();
    ElfFile elf;
    try {
      elf = ElfFile.open(path);
    } catch (GsymFormatException e) {
      return Optional.empty(); // an ELF without readable section headers has no section to find
    }
    try (elf) {
      return find(elf);
    }
  }

  /** The {@code .gsym} section of {@code elf}, as {@link #find(Path)}. */
  public static Optional<Location> find(ElfFile elf) {
    ElfFile.Section s = elf.section(SECTION);
    if (s == null) return Optional.empty();
    if (s.type() == ElfFile.SHT_NOBITS) {
      throw new GsymFormatException(elf.source(), elf.sectionHeaderOffset(s.index()),
          "section " + SECTION + " has no contents in this file (SHT_NOBITS)");
    }
    if ((s.flags() & ElfFile.SHF_COMPRESSED) != 0) {
      throw new GsymFormatException(elf.source(), elf.sectionHeaderOffset(s.index()),
          "section " + SECTION + " is compressed (SHF_COMPRESSED); a GSYM is mapped as it is stored");
    }
    elf.rawData(s); // checks that the bytes lie inside the file
    return Optional.of(new Location(s.offset(), s.size()));
  }

  /**
   * The UUID the header of {@code gsym} records (its size at byte 7, the bytes from byte 28, the
   * same in either byte order), for a GSYM whose header was validated by opening it.
   */
  public static byte[] uuid(MemorySegment gsym) {
    return gsym.asSlice(28, gsym.get(ValueLayout.JAVA_BYTE, 7) & 0xff).toArray(ValueLayout.JAVA_BYTE);
  }

  /**
   * Whether {@code gsym} (validated) belongs in {@code elf}: its UUID is the ELF file's GNU build-id,
   * or both have none (as llvm-gsymutil sets the UUID from the build-id).
   */
  public static boolean matchesBuildId(ElfFile elf, MemorySegment gsym) {
    byte[] id = elf.buildId();
    return Arrays.equals(uuid(gsym), id == null ? new byte[0] : id);
  }

  /**
   * Writes {@code out}: a copy of {@code elf} with {@code gsym} as its {@link #SECTION} section, the
   * same bytes as the standalone file, through {@link AtomicFile} (so a failure leaves {@code out} as
   * it was) with the input's permissions (as objcopy gives them); {@code out} may be the input.
   *
   * @return the section's file offset in {@code out}
   * @throws GsymFormatException if {@code elf} cannot take the section (see {@link ElfSectionWriter})
   */
  public static long write(ElfFile elf, MemorySegment gsym, Path out) throws IOException {
    ElfSectionWriter w = new ElfSectionWriter(elf, SECTION, gsym.byteSize());
    AtomicFile.write(out, permissions(elf), ch -> {
      w.write(gsym, ch);
      return null;
    });
    return w.dataOffset();
  }

  /** As {@link #write(ElfFile, MemorySegment, Path)}, to a stream (standard output). */
  public static long write(ElfFile elf, MemorySegment gsym, OutputStream out) throws IOException {
    ElfSectionWriter w = new ElfSectionWriter(elf, SECTION, gsym.byteSize());
    AtomicFile.write(out, ch -> {
      w.write(gsym, ch);
      return null;
    });
    return w.dataOffset();
  }

  /** The input's permissions; null if they cannot be read. */
  private static Set<PosixFilePermission> permissions(ElfFile elf) {
    try {
      return Files.getPosixFilePermissions(Path.of(elf.source()));
    } catch (IOException | UnsupportedOperationException | InvalidPathException e) {
      return null;
    }
  }
}
