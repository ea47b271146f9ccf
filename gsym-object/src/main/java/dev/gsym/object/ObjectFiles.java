package dev.gsym.object;

import dev.gsym.GsymFormatException;
import dev.gsym.elf.ElfFile;
import dev.gsym.macho.MachOFile;
import java.io.IOException;
import java.nio.file.Path;

/** Opens a file as the kind of object file it is ({@link FileKind}). */
public final class ObjectFiles {
  private ObjectFiles() {}

  /**
   * Opens {@code path} as an ELF, (thin) Mach-O or PE/COFF file.
   *
   * @throws GsymFormatException "The file was not recognized as a valid object file" for anything
   *     else (a universal file included: open its slices), or the file's own damage
   */
  public static ObjectFile open(Path path) throws IOException {
    return switch (FileKind.sniff(path)) {
      case ELF -> ElfFile.open(path);
      case MACH_O -> MachOFile.open(path);
      case COFF -> dev.gsym.coff.CoffFile.open(path);
      default -> throw new GsymFormatException(path.toString(), 0, "The file was not recognized as a valid object file");
    };
  }
}
