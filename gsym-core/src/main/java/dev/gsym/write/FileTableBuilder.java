package dev.gsym.write;

import dev.gsym.format.FileEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Builds the file table as LLVM does: each distinct {dir, base} entry once, in order of first
 * insertion, index 0 the {0, 0} entry of "". Not thread-safe; {@link GsymCreator} locks.
 */
final class FileTableBuilder {
  private final HashMap<FileEntry, Integer> index = new HashMap<>();
  private final List<FileEntry> entries = new ArrayList<>();
  /** Index of the {0, 0} entry {@link #noFile()} added, or -1. */
  private int noFile = -1;

  FileTableBuilder() {
    insert(FileEntry.NONE);
  }

  /** The index of {@code fe}, appending it if new. */
  int insert(FileEntry fe) {
    Integer idx = index.get(fe);
    if (idx != null) return idx;
    int i = entries.size();
    index.put(fe, i);
    entries.add(fe);
    return i;
  }

  /**
   * The index of a {0, 0} entry at a non-zero index, added once: a line-table row in this file
   * marks addresses without a source line (see {@link GsymCreator#insertNoFile()}).
   */
  int noFile() {
    if (noFile < 0) {
      noFile = entries.size();
      entries.add(FileEntry.NONE);
    }
    return noFile;
  }

  /** The index in this table for {@code fe}, found at {@code index} of another table. */
  int insertCopied(int index, FileEntry fe) {
    return index != 0 && fe.equals(FileEntry.NONE) ? noFile() : insert(fe);
  }

  FileEntry get(int i) {
    return entries.get(i);
  }

  int size() {
    return entries.size();
  }

  /** The entries in index order (a live view: the table must not change while it is used). */
  List<FileEntry> entries() {
    return entries;
  }
}
