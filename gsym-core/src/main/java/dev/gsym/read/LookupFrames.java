package dev.gsym.read;

import dev.gsym.TextBuffer;
import dev.gsym.format.AddressRange;
import dev.gsym.format.InlineInfo;
import dev.gsym.read.internal.FrameSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A reusable, mutable answer for one address, filled by {@link GsymReader#lookup(long,
 * LookupFrames)} without building Strings or lists: frames hold string-table offsets and file
 * indexes, resolved only when printed ({@link #appendTo}: llvm-gsymutil's text, with names and
 * paths copied as bytes straight from the file's string table) or converted ({@link #toResult}).
 * Frames are ordered as in {@link LookupResult}: deepest inlined frame first. After a miss (the
 * lookup returned false) there are no frames and {@link #missMessage()} says why. This is the batch
 * symbolication API (the command line's lookups use it): one instance per thread, reused for every
 * address, allocates nothing once the caches are warm. Not thread-safe.
 *
 * <pre>{@code
 * LookupFrames frames = new LookupFrames();          // one per thread
 * for (long addr : addresses) {
 *   if (reader.lookup(addr, frames)) use(frames.name(frames.count() - 1), frames.line(0));
 *   else skip(frames.missMessage());                 // "address 0x10 is not in GSYM"
 * }
 * }</pre>
 */
public final class LookupFrames {
  /** File index of a frame without a source file. */
  private static final long NO_FILE = -1;

  private GsymReader reader;
  private long address;
  private long functionStart;
  private long functionEnd;
  private int functionName;
  private int count;
  private int[] names = new int[8];
  private long[] files = new long[8];
  private int[] lines = new int[8];
  private long[] offsets = new long[8];
  private int[] regex = new int[0];
  private int regexCount;
  private int callSiteFlags;
  /** Why the last lookup found nothing; null after a hit, or when {@link #missNotInGsym} says it. */
  private String missMessage;
  /** The last lookup found no function: "address ... is not in GSYM", built only when asked for. */
  private boolean missNotInGsym;

  /** An empty answer, to be filled by {@link GsymReader#lookup(long, LookupFrames)}. */
  public LookupFrames() {}

  /** Number of frames: at least 1 after a lookup that found the address, 0 after a miss. */
  public int count() {
    return count;
  }

  /** The address looked up. */
  public long address() {
    return address;
  }

  /** The source line of frame {@code k} (0: the innermost, where the address is), 0 if unknown. */
  public int line(int k) {
    return lines[java.util.Objects.checkIndex(k, count)];
  }

  /** The function name of frame {@code k} (0: the innermost), decoded from the string table. */
  public String name(int k) {
    return reader.string(names[java.util.Objects.checkIndex(k, count)]);
  }

  /**
   * The string-table offset of frame {@code k}'s function name ({@link GsymReader#string} decodes
   * it): equal offsets are equal names, so a caller can keep what it makes of a name by offset.
   */
  public int nameOffset(int k) {
    return names[java.util.Objects.checkIndex(k, count)];
  }

  /**
   * The file-table index of frame {@code k}'s source file ({@link GsymReader#file}), or -1 for a
   * frame without a location (a function without a line table).
   */
  public long fileIndex(int k) {
    return files[java.util.Objects.checkIndex(k, count)];
  }

  /** The start address of the function that covers the address (the outermost frame's function). */
  public long functionStart() {
    return functionStart;
  }

  /** The reader that filled these frames. */
  public GsymReader reader() {
    return reader;
  }

  /** True if the last lookup found the address (there are frames). */
  public boolean found() {
    return count > 0;
  }

  /**
   * Why the last lookup found nothing, as llvm-gsymutil words it (e.g. {@code address 0x10 is not
   * in GSYM}, {@code address 0x1010 is not in the line table}); null after a lookup that found the
   * address.
   */
  public String missMessage() {
    if (missNotInGsym) {
      missMessage = "address " + dev.gsym.format.Hex.hex(address) + " is not in GSYM";
      missNotInGsym = false;
    }
    return missMessage;
  }

  /** Binds these frames to the reader about to fill them, and empties them. */
  void reset(GsymReader r) {
    reader = r;
    count = 0;
    // as a new instance: a record without a name never calls begin()
    functionStart = 0;
    functionEnd = 0;
    functionName = 0;
    regexCount = 0;
    callSiteFlags = 0;
    missMessage = null;
    missNotInGsym = false;
  }

  /** Records a miss: no function covers {@code addr} (the message is made when asked for). */
  void notInGsym(long addr) {
    address = addr;
    count = 0;
    missNotInGsym = true;
  }

  /** Records a miss at {@code addr} with llvm-gsymutil's {@code message}. */
  void miss(long addr, String message) {
    address = addr;
    count = 0;
    missMessage = message;
  }

  /** The writing side, for the lookup code of {@code dev.gsym.read.internal}. */
  FrameSink sink() {
    return sink;
  }

  private final FrameSink sink = new FrameSink() {
    @Override
    public void begin(long addr, long start, long end, int nameStrp) {
      address = addr;
      functionStart = start;
      functionEnd = end;
      functionName = nameStrp;
      count = 0;
      regexCount = 0;
      callSiteFlags = 0;
    }

    @Override
    public void addRow(int nameStrp, long file, int line, long offset) {
      reader.fileIsUnnamed(file); // only checks that the entry exists
      add(nameStrp, file, line, offset);
    }

    @Override
    public void addNoFile(int nameStrp, long offset) {
      add(nameStrp, NO_FILE, 0, offset);
    }

    @Override
    public InlineInfo.InlineFrames inlineFrames() {
      return inline;
    }

    @Override
    public void clearRegex() {
      regexCount = 0;
      callSiteFlags = 0;
    }

    @Override
    public void callSiteFlags(int flags) {
      callSiteFlags = flags;
    }

    @Override
    public void addRegex(int strp) {
      if (regexCount == regex.length) regex = Arrays.copyOf(regex, Math.max(4, regexCount * 2));
      regex[regexCount++] = strp;
    }
  };

  private void add(int nameStrp, long file, int line, long offset) {
    if (count == names.length) {
      int n = count * 2;
      names = Arrays.copyOf(names, n);
      files = Arrays.copyOf(files, n);
      lines = Arrays.copyOf(lines, n);
      offsets = Arrays.copyOf(offsets, n);
    }
    names[count] = nameStrp;
    files[count] = file;
    lines[count] = line;
    offsets[count] = offset;
    count++;
  }

  /**
   * Receives inline frames for this lookup (LLVM's lookup loop): a frame whose call file is {0, 0}
   * is skipped; otherwise the last frame becomes the inlined function and its caller is added at
   * the call site.
   */
  private final InlineInfo.InlineFrames inline = (name, callFile, callLine, firstStart) -> {
    long cfIndex = Integer.toUnsignedLong(callFile);
    if (reader.fileIsUnnamed(cfIndex)) return;
    long lastOffset = offsets[count - 1];
    int lastName = names[count - 1];
    names[count - 1] = name;
    offsets[count - 1] = address - firstStart;
    add(lastName, cfIndex, callLine, lastOffset);
  };

  /**
   * Appends llvm-gsymutil's text for this result, as {@link LookupResult#appendTo} does: the
   * address, each frame ("name [+ offset] [@ path:line]", inlined ones marked " [inlined]", joined
   * by a newline and 20 spaces), the call-site regexes if {@code withCallSites}, and a newline.
   * Names and paths are copied as the file's raw bytes. After a miss, llvm-gsymutil's error line:
   * the address, {@code ": error: "} and {@link #missMessage()}.
   */
  public TextBuffer appendTo(TextBuffer out, boolean withCallSites) {
    out.appendHex(address, 16).append(':').append(' ');
    if (count == 0) return out.append(ERROR).append(missMessage()).append('\n');
    GsymReader r = reader;
    for (int i = 0; i < count; i++) {
      if (i > 0) out.append('\n').repeat(' ', 20);
      r.appendString(names[i], out);
      long offset = offsets[i] & 0xFFFF_FFFFL;
      if (offset > 0) out.append(' ').append('+').append(' ').appendUnsigned(offset);
      byte[] path = files[i] == NO_FILE ? null : r.pathBytes(files[i]);
      if (path != null) {
        out.append(' ').append('@').append(' ').append(path).append(':')
            .appendUnsigned(Integer.toUnsignedLong(lines[i]));
      }
      if (i + 1 != count) out.append(INLINED);
    }
    if (withCallSites && regexCount > 0) {
      out.append(CALL_SITES);
      for (int i = 0; i < regexCount; i++) {
        if (i > 0) out.append(',').append(' ');
        r.appendString(regex[i], out);
      }
    }
    return out.append('\n');
  }

  private static final byte[] ERROR = "error: ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] INLINED = " [inlined]".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] CALL_SITES =
      "\n      CallSites: ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * The same answer as an immutable {@link LookupResult}.
   *
   * @throws IllegalStateException after a miss (there is no answer)
   */
  public LookupResult toResult() {
    if (count == 0) throw new IllegalStateException("no answer for " + dev.gsym.format.Hex.hex(address) + ": " + missMessage());
    List<SourceLocation> locs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String dir = "";
      String base = "";
      if (files[i] != NO_FILE) {
        var f = reader.file(files[i]);
        dir = reader.string(f.dir());
        base = reader.string(f.base());
      }
      locs.add(new SourceLocation(reader.string(names[i]), dir, base, lines[i], offsets[i]));
    }
    List<String> rx = new ArrayList<>(regexCount);
    for (int i = 0; i < regexCount; i++) rx.add(reader.string(regex[i]));
    return new LookupResult(address, new AddressRange(functionStart, functionEnd),
        reader.string(functionName), locs, rx, callSiteFlags);
  }
}
