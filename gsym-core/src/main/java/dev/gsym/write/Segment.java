package dev.gsym.write;

import dev.gsym.format.FileEntry;
import dev.gsym.format.FunctionInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * One GSYM file of {@link GsymCreator#saveSegments} being filled, as llvm's {@code createSegment}
 * fills a new creator: its own string and file tables, into which each function's name, line table
 * and inline info are copied (strings and files re-inserted in llvm's order); merged functions and
 * call sites are not copied, as in llvm.
 */
final class Segment {
  private final StringTableBuilder srcStrings;
  private final FileTableBuilder srcFiles;
  private final StringTableBuilder strings = new StringTableBuilder();
  private final FileTableBuilder files = new FileTableBuilder();
  private final List<StoredFunction> funcs = new ArrayList<>();

  /** A segment of the functions of a creator whose tables are {@code strings} and {@code files}. */
  Segment(StringTableBuilder strings, FileTableBuilder files) {
    this.srcStrings = strings;
    this.srcFiles = files;
  }

  /** Copies {@code fi} (of the source tables) into this segment; its encoded size. */
  long add(FunctionInfo fi) {
    FunctionInfo copy = new FunctionInfo(fi.range(), fi.name(), fi.lineTable(), fi.inlineInfo(), null, null, fi.unwind())
        .remap(o -> strings.add(srcStrings.get(o)), this::copyFile);
    StoredFunction sf = StoredFunction.of(copy);
    funcs.add(sf);
    return sf.encodedSize();
  }

  private int copyFile(int index) {
    FileEntry fe = srcFiles.get(index);
    int dir = fe.dir() == 0 ? 0 : strings.add(srcStrings.get(fe.dir()));
    int base = strings.add(srcStrings.get(fe.base()));
    return files.insertCopied(index, new FileEntry(dir, base));
  }

  /** LLVM's {@code calculateHeaderAndTableSize} of this segment as it is now. */
  long headerAndTableSize(Long baseAddress, byte[] uuid, int version) {
    Long base = baseAddress != null ? baseAddress : funcs.isEmpty() ? null : funcs.getFirst().start();
    return FileLayout.headerAndTableSize(version, funcs.size(), FileLayout.addressOffsetSize(base, funcs), files.size(),
        strings.size(), uuid.length);
  }

  boolean isEmpty() {
    return funcs.isEmpty();
  }

  /** The segment as a file to write. */
  Contents contents(Long baseAddress, byte[] uuid, int version, long version1Limit) {
    return new Contents(funcs, files.entries(), strings, baseAddress, uuid, version, version1Limit);
  }
}
