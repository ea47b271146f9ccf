package dev.gsym.coff;

/**
 * The COFF file header (at 0 in an object, after the "PE\0\0" signature in an image) and what the
 * PE optional header adds.
 *
 * @param offset where the header starts in the file
 * @param isImage the file starts with an MS-DOS stub (llvm's getDOSHeader: section sizes are then
 *     the smaller of VirtualSize and SizeOfRawData)
 * @param peHeader the file has a PE32 or PE32+ optional header (then it has data directories and
 *     llvm never relocates it)
 * @param imageBase the optional header's ImageBase, 0 without one
 */
public record CoffHeader(int machine, int numberOfSections, long pointerToSymbolTable, long numberOfSymbols,
    int sizeOfOptionalHeader, int characteristics, long offset, boolean isImage, boolean peHeader, long imageBase) {
  public static final int SIZE = 20;
  public static final int IMAGE_FILE_MACHINE_I386 = 0x14c;
  public static final int IMAGE_FILE_MACHINE_AMD64 = 0x8664;
  public static final int IMAGE_FILE_MACHINE_ARMNT = 0x1c4;
  public static final int IMAGE_FILE_MACHINE_ARM64 = 0xaa64;
  public static final int IMAGE_FILE_MACHINE_ARM64EC = 0xa641;
  public static final int IMAGE_FILE_MACHINE_ARM64X = 0xa64e;
  public static final int IMAGE_FILE_MACHINE_R4000 = 0x166;

  /** Where the section table starts. */
  public long sectionTable() {
    return offset + SIZE + sizeOfOptionalHeader;
  }

  /** llvm's getMachineArchType as a triple architecture name (makeTriple). */
  public String archName() {
    return switch (machine) {
      case IMAGE_FILE_MACHINE_I386 -> "i386";
      case IMAGE_FILE_MACHINE_AMD64 -> "x86_64";
      case IMAGE_FILE_MACHINE_ARMNT -> "thumb";
      case IMAGE_FILE_MACHINE_ARM64, IMAGE_FILE_MACHINE_ARM64EC, IMAGE_FILE_MACHINE_ARM64X -> "aarch64";
      case IMAGE_FILE_MACHINE_R4000 -> "mipsel";
      default -> "unknown";
    };
  }

  /** llvm's getBytesInAddress: 8 for x86_64 and aarch64, else 4. */
  public boolean is64() {
    String a = archName();
    return a.equals("x86_64") || a.equals("aarch64");
  }
}
