package dev.gsym.macho;

import dev.gsym.io.ByteView;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parts of a Mach-O file that must not overlap (headers, section contents and relocations,
 * symbol and string tables, the LINKEDIT data the load commands point at), checked as llvm's
 * MachOObjectFile checkOverlappingElement checks each new one, with the same messages, in O(log n)
 * instead of llvm's walk of a list (O(n) an element, so quadratic in the element count).
 *
 * <p>The same files are refused with the same message: llvm's list starts with the headers at
 * offset 0 and inserts each element before the first one it ends at or before, after checking it
 * against every element up to there; its overlap test is interval intersection for non-empty
 * elements (empty ones are not inserted). So the list stays sorted by offset and disjoint (offsets
 * and sizes here never wrap 64 bits: larger values are refused before they get here), no later
 * element can intersect, and the element llvm reports is the lowest-offset one intersecting.
 */
final class FileElements {
  private record Element(long offset, long size, String name) {}

  private final ByteView file;
  private final TreeMap<Long, Element> byOffset = new TreeMap<>();

  /** The elements of {@code file}, starting with its headers ({@code headersEnd} bytes at 0). */
  FileElements(ByteView file, long headersEnd) {
    this.file = file;
    byOffset.put(0L, new Element(0, headersEnd, "Mach-O headers"));
  }

  /**
   * Adds {@code size} bytes at {@code offset} named {@code name}; llvm's "NAME at offset O with a
   * size of S, overlaps OTHER at offset ... with a size of ..." at {@code where} if they intersect
   * an element already there. Empty elements are not kept.
   */
  void add(long offset, long size, String name, long where) {
    if (size == 0) return;
    long end = offset + size;
    Element hit = null;
    Map.Entry<Long, Element> floor = byOffset.floorEntry(offset);
    if (floor != null && Long.compareUnsigned(floor.getValue().offset() + floor.getValue().size(), offset) > 0) {
      hit = floor.getValue();
    } else {
      Map.Entry<Long, Element> next = byOffset.higherEntry(offset);
      if (next != null && Long.compareUnsigned(next.getKey(), end) < 0) hit = next.getValue();
    }
    if (hit != null) {
      throw MachOFile.malformed(file, where, name + " at offset " + offset + " with a size of " + Long.toUnsignedString(size)
          + ", overlaps " + hit.name() + " at offset " + hit.offset() + " with a size of " + Long.toUnsignedString(hit.size()));
    }
    byOffset.put(offset, new Element(offset, size, name));
  }
}
