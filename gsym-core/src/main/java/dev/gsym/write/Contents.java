package dev.gsym.write;

import dev.gsym.GsymFormatException;
import dev.gsym.format.FileEntry;
import dev.gsym.io.GsymWriter;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.List;

/**
 * What a GSYM file is written from: the finished functions in address order, the string and file
 * tables their records refer to, the base address (null: the first function's start), the UUID and
 * the version. A {@link GsymCreator} writes its own; {@code saveSegments} one for each segment.
 * The lists and tables are read, not copied: they must not change while the file is written.
 */
record Contents(List<StoredFunction> funcs, List<FileEntry> files, StringTableBuilder strings, Long baseAddress,
    byte[] uuid, int version, long version1Limit) {

  Contents {
    if (funcs.isEmpty()) throw new GsymFormatException("GsymCreator", -1, "no functions to encode");
  }

  /** The header's BaseAddress: the one set, else the first function's start. */
  long base() {
    return baseAddress != null ? baseAddress : funcs.getFirst().start();
  }

  int addressOffsetSize() {
    return FileLayout.addressOffsetSize(base(), funcs);
  }

  /** The whole file. */
  byte[] encode(ByteOrder order) {
    FileLayout layout = FileLayout.of(this);
    try {
      ByteArrayOutputStream records = new ByteArrayOutputStream();
      long[] offsets = writeRecords(records, layout, order);
      byte[] prefix = layout.prefix(this, offsets, order);
      byte[] out = new byte[prefix.length + records.size()];
      System.arraycopy(prefix, 0, out, 0, prefix.length);
      System.arraycopy(records.toByteArray(), 0, out, prefix.length, records.size());
      return out;
    } catch (IOException e) {
      throw new AssertionError(e); // in-memory streams do not fail
    }
  }

  /** Streams the records from their final offset into {@code ch}, then writes the header and tables in front. */
  void writeTo(FileChannel ch, FileLayout layout, ByteOrder order) throws IOException {
    ch.position(layout.recordsStart());
    OutputStream os = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
    long[] offsets = writeRecords(os, layout, order);
    os.flush();
    ByteBuffer bb = ByteBuffer.wrap(layout.prefix(this, offsets, order));
    long at = 0;
    while (bb.hasRemaining()) at += ch.write(bb, at);
  }

  /**
   * Streams the 4-aligned records from absolute position {@code layout.recordsStart()}, with the
   * version's string-offset size; returns their absolute offsets and, last, the end of the last one.
   */
  private long[] writeRecords(OutputStream os, FileLayout layout, ByteOrder order) throws IOException {
    long[] offsets = new long[funcs.size() + 1];
    GsymWriter w = new GsymWriter(order, 0, 256, layout.header().stringOffsetSize());
    long pos = layout.recordsStart();
    byte[] zeros = new byte[4];
    for (int i = 0; i < funcs.size(); i++) {
      int pad = (int) ((4 - (pos & 3)) & 3);
      os.write(zeros, 0, pad);
      pos += pad;
      layout.checkRecordOffset(pos);
      offsets[i] = pos;
      pos += funcs.get(i).writeTo(os, w);
    }
    offsets[funcs.size()] = pos;
    return offsets;
  }
}
