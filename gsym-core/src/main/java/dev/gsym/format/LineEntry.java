package dev.gsym.format;

/**
 * One line-table row: an address, a file-table index (0 = no file) and a line (u32).
 */
public record LineEntry(long address, int file, int line) {
  /** "addr=HEX64, file=%3u, line=%3u" as LLVM prints a row. */
  @Override
  public String toString() {
    return "addr=" + Hex.hex64(address) + String.format(", file=%3d, line=%3d",
        Integer.toUnsignedLong(file), Integer.toUnsignedLong(line));
  }
}
