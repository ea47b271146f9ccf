package dev.gsym.read.internal;

import dev.gsym.format.AddressRange;
import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.Hex;
import dev.gsym.format.InlineInfo;
import dev.gsym.format.LineEntry;
import dev.gsym.format.LineTable;
import dev.gsym.format.Reading;
import dev.gsym.io.Cursor;
import dev.gsym.read.LookupException;

/**
 * LLVM's {@code FunctionInfo::lookup} over an encoded record, decoding it at each call: a visitor
 * of {@link FunctionInfo#parse} in {@link Reading#LOOKUP} mode that takes the line table's row for
 * the address, the call sites' regexes and the inline tree, then resolves the frames. The path for
 * records the cache does not hold, and for merged functions.
 */
public final class RecordLookup implements FunctionInfo.RecordVisitor {
  private final long start;
  private final long addr;
  private final long callSiteAddr;
  private final FrameSink out;
  private final boolean wantMerged;
  private int name;
  private LineEntry row;
  private Cursor inline;
  private Cursor merged;

  private RecordLookup(long start, long addr, long callSiteAddr, FrameSink out, boolean wantMerged) {
    this.start = start;
    this.addr = addr;
    this.callSiteAddr = callSiteAddr;
    this.out = out;
    this.wantMerged = wantMerged;
  }

  /**
   * Looks {@code addr} up in the record at {@code record} of the function starting at {@code
   * start}; returns the payload of its MergedFunctionsInfo chunk if {@code wantMerged} and it has
   * one, else null.
   *
   * @throws LookupException as llvm-gsymutil fails
   * @throws dev.gsym.GsymFormatException for malformed bytes (the caller reports its detail)
   */
  public static Cursor lookup(Cursor record, long start, long addr, FrameSink out, boolean wantMerged) {
    return lookup(record, start, addr, addr, out, wantMerged);
  }

  /**
   * As {@link #lookup(Cursor, long, long, FrameSink, boolean)}, with the call site taken at {@code
   * callSiteAddr} instead of {@code addr}: a caller's frames are looked up inside its call
   * instruction (the return address minus one) while its call sites are keyed by the return address.
   */
  public static Cursor lookup(Cursor record, long start, long addr, long callSiteAddr, FrameSink out,
      boolean wantMerged) {
    RecordLookup v = new RecordLookup(start, addr, callSiteAddr, out, wantMerged);
    FunctionInfo.parse(record, Reading.LOOKUP, v);
    if (v.row == null) {
      out.addNoFile(v.name, addr - start);
    } else {
      out.addRow(v.name, Integer.toUnsignedLong(v.row.file()), v.row.line(), addr - start);
      if (v.inline != null) InlineInfo.lookup(v.inline, start, addr, out.inlineFrames());
    }
    return v.merged;
  }

  /** LLVM's "address 0x… is not in GSYM". */
  public static LookupException notInGsym(long addr) {
    return new LookupException("address " + Hex.hex(addr) + " is not in GSYM");
  }

  @Override
  public boolean header(long size, int nameStrp) {
    if (size > 0 && !new AddressRange(start, start + size).contains(addr)) throw notInGsym(addr);
    if (nameStrp != 0) out.begin(addr, start, start + size, nameStrp);
    name = nameStrp;
    return true;
  }

  @Override
  public boolean chunk(int type, Cursor body) {
    switch (type) {
      case FunctionInfo.LINE_TABLE_INFO -> row = LineTable.lookup(body, start, addr);
      case FunctionInfo.INLINE_INFO -> inline = body;
      case FunctionInfo.MERGED_FUNCTIONS_INFO -> {
        if (wantMerged) merged = body;
      }
      case FunctionInfo.CALL_SITE_INFO -> callSiteRegex(body);
      default -> { /* unknown chunks are skipped in lookups */ }
    }
    return true;
  }

  private void callSiteRegex(Cursor body) {
    CallSiteInfoCollection all = CallSiteInfoCollection.decode(body);
    out.clearRegex();
    long returnOffset = callSiteAddr - start;
    for (CallSiteInfo cs : all.callSites()) {
      if (cs.returnOffset() == returnOffset) {
        out.callSiteFlags(cs.flags());
        for (int r : cs.matchRegex()) out.addRegex(r);
        return;
      }
    }
  }
}
