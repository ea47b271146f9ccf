package dev.gsym.format;

/** A file-table entry: string offsets of the directory and the base name (0 = empty). */
public record FileEntry(int dir, int base) {
  public static final FileEntry NONE = new FileEntry(0, 0);
}
