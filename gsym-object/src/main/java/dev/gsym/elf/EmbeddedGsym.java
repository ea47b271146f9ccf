package dev.gsym.elf;

import dev.gsym.GsymFormatException;
import java.io.IOException;
import dev.gsym.object.FileKind;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A GSYM carried inside an ELF file in a section named {@code .gsym} (the GSYM proposal's layout:
 * the section's bytes are exactly a standalone GSYM file, its offsets relative to the section's
 * start). {@link #find} locates it for readers ({@code GsymReader.open(FileChannel, offset, size,
 * source)} maps just that window); {@link ElfSectionWriter} writes it.
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
}
