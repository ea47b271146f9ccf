package dev.gsym.coff;

/**
 * One section header ({@code index} from 0; a symbol's SectionNumber is {@code index + 1}), with its
 * name resolved through the string table for long names ("/4").
 */
public record CoffSection(int index, String name, long virtualSize, long virtualAddress, long sizeOfRawData,
    long pointerToRawData, long pointerToRelocations, int numberOfRelocations, int characteristics, long headerOffset) {
  public static final int SIZE = 40;
  public static final int IMAGE_SCN_CNT_CODE = 0x20;
  public static final int IMAGE_SCN_CNT_UNINITIALIZED_DATA = 0x80;
  public static final int IMAGE_SCN_MEM_READ = 0x40000000;
  public static final int IMAGE_SCN_MEM_WRITE = 0x80000000;

  /** llvm's isSectionText. */
  public boolean isText() {
    return (characteristics & IMAGE_SCN_CNT_CODE) != 0;
  }

  /** llvm's isSectionBSS: uninitialized, readable and writable. */
  public boolean isBss() {
    int bss = IMAGE_SCN_CNT_UNINITIALIZED_DATA | IMAGE_SCN_MEM_READ | IMAGE_SCN_MEM_WRITE;
    return (characteristics & bss) == bss;
  }

  /** llvm's isSectionVirtual: no contents in the file. */
  public boolean isVirtual() {
    return pointerToRawData == 0;
  }

  /**
   * llvm's getSectionSize: in an image the smaller of VirtualSize and SizeOfRawData (the raw size
   * is padded to the file alignment), in an object SizeOfRawData.
   */
  public long size(boolean image) {
    return image ? Math.min(virtualSize, sizeOfRawData) : sizeOfRawData;
  }
}
