package dev.gsym.format;

/**
 * One line-table row: an address, a file-table index (0 = no file) and a line (u32).
 */
public record LineEntry(long address, int file, int line) {
  /** "addr=HEX64, file=%3u, line=%3u" as LLVM prints a row. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(48).append("addr=").append(Hex.hex64(address)).append(", file=");
    pad3(sb, Integer.toUnsignedString(file)).append(", line=");
    return pad3(sb, Integer.toUnsignedString(line)).toString();
  }

  private static StringBuilder pad3(StringBuilder sb, String digits) {
    for (int i = digits.length(); i < 3; i++) sb.append(' ');
    return sb.append(digits);
  }
}
