package dev.gsym.symbolize;

import dev.gsym.read.LookupException;
import dev.gsym.io.AtomicFile;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupResult;
import dev.gsym.read.SourceLocation;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything this module uses of gsym-core's reader, in one place: opening a GSYM file, its base
 * address, and turning a lookup into {@link Frame}s.
 */
final class GsymCoreAdapter implements AutoCloseable {
  private final GsymReader reader;
  private volatile boolean closed;

  private GsymCoreAdapter(GsymReader reader) {
    this.reader = reader;
  }

  /** The reader itself (valid while the module is open). */
  GsymReader reader() {
    return reader;
  }

  /**
   * Maps and validates a GSYM file.
   *
   * @throws dev.gsym.GsymFormatException if it is not a valid GSYM file
   */
  static GsymCoreAdapter open(Path path) throws IOException {
    return new GsymCoreAdapter(GsymReader.open(path));
  }

  /** Maps and validates the GSYM file open in {@code ch} (which may be closed afterwards). */
  static GsymCoreAdapter open(FileChannel ch, String source) throws IOException {
    return new GsymCoreAdapter(GsymReader.open(ch, source));
  }

  /** Maps and validates the GSYM stored as the {@code size} bytes at {@code offset} of the file open in {@code ch}. */
  static GsymCoreAdapter open(FileChannel ch, long offset, long size, String source) throws IOException {
    return new GsymCoreAdapter(GsymReader.open(ch, offset, size, source));
  }

  /**
   * A new empty file for a conversion that stays private to this process: unlinked as soon as it
   * is open (see {@code AtomicFile.scratch}), so nothing is left behind whatever stops the process.
   */
  static FileChannel scratch() throws IOException {
    return AtomicFile.scratch(AtomicFile.systemTemporaryDirectory());
  }

  /**
   * Checks that the file still holds its last function record (the one at the highest offset): a
   * store file cut short on disk (truncated in place, which the store itself never does) then
   * fails here instead of answering "not in GSYM" for the functions it lost. One pass over the
   * offsets and one record decoded.
   *
   * @throws dev.gsym.GsymFormatException if the record is cut short or lies past the end
   */
  void checkComplete() {
    int n = reader.numFunctions();
    int last = -1;
    long highest = 0;
    for (int i = 0; i < n; i++) {
      long off = reader.functionInfoOffset(i);
      if (last < 0 || Long.compareUnsigned(off, highest) > 0) {
        highest = off;
        last = i;
      }
    }
    if (last >= 0) reader.functionInfoAtIndex(last);
  }

  /** The header's BaseAddress. */
  long baseAddress() {
    return reader.header().baseAddress();
  }

  String source() {
    return reader.source();
  }

  /**
   * The functions at {@code fileAddress}: the primary first, then the merged functions that cover
   * it (see {@link GsymReader#lookupCandidates}), each with its call site's regexes and flags there.
   *
   * @throws NotCovered with llvm-gsymutil's message if no function covers the address
   */
  List<LookupResult> candidates(long fileAddress) throws NotCovered {
    return candidates(fileAddress, fileAddress);
  }

  /** As {@link GsymReader#lookupCandidates(long, long)}. */
  List<LookupResult> candidates(long fileAddress, long callSiteAddress) throws NotCovered {
    try {
      return reader.lookupCandidates(fileAddress, callSiteAddress);
    } catch (LookupException e) {
      throw new NotCovered(e.getMessage());
    }
  }

  /** The frames of one lookup result, deepest first. */
  static List<Frame> frames(LookupResult r) {
    long fileAddress = r.lookupAddress();
    List<SourceLocation> locs = r.locations();
    List<Frame> frames = new ArrayList<>(locs.size());
    for (int i = 0; i < locs.size(); i++) {
      SourceLocation loc = locs.get(i);
      boolean outermost = i == locs.size() - 1;
      // an inlined frame's offset is from the start of its first range (llvm's SourceLocation)
      long start = outermost ? r.functionRange().start() : fileAddress - loc.offset();
      frames.add(new Frame(loc.name(), line(loc), start, outermost ? null : line(locs.get(i + 1))));
    }
    return frames;
  }

  private static SourceLine line(SourceLocation loc) {
    return new SourceLine(loc.dir(), loc.base(), Integer.toUnsignedLong(loc.line()));
  }

  /** True once closed (unmapped). */
  boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
    reader.close();
  }

  /** No function covers an address. */
  static final class NotCovered extends Exception {
    NotCovered(String message) {
      super(message, null, false, false);
    }
  }
}
