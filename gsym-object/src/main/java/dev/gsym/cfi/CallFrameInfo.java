package dev.gsym.cfi;

import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import dev.gsym.unwind.UnwindRow;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code .eh_frame} or {@code .debug_frame} section as a sequence of CIEs and FDEs: the one
 * walker of its entries ({@link #parse}, which the full read and the {@code .eh_frame_hdr} lookups
 * share through {@link #fdeAt}), the CIE and FDE header parsers, and the rows of an FDE's table
 * ({@link #rows}). Positions are section offsets; errors are {@link GsymFormatException}s with
 * the absolute file offset of the bad byte, their detail naming the section and the entry.
 *
 * <p>Rules of the walk (docs/unwind.md, "Reading CFI"): an entry is found by its initial length
 * alone, so an entry whose header or instructions are bad is reported and skipped and the walk goes
 * on; it stops only where the next entry cannot be found (a length past the end of the section, a
 * reserved length, fewer than four bytes left) or at an {@code .eh_frame} zero terminator (trailing
 * bytes that are not zero are reported). A zero-length entry in {@code .debug_frame} is reported and
 * skipped. An FDE whose CIE pointer does not lead to a usable CIE is reported and skipped. CIEs may be
 * anywhere in the section, before or after their FDEs, and are parsed once (a bounded cache). All of
 * it runs under a {@link Budget} proportional to the section's size.
 *
 * <p>Not thread-safe: one instance per reading.
 */
public final class CallFrameInfo {
  /**
   * CIEs kept parsed at most: by count, and by an estimate of their heap (32 bytes per byte of CIE:
   * its decoded initial instructions).
   */
  static final int MAX_CACHED_CIES = 4096;
  static final long MAX_CACHED_CIE_HEAP = 64L << 20;

  private final CfiSection section;
  private final ByteView data;
  private final Budget budget;
  private final CieCache cies = new CieCache();

  private CallFrameInfo(CfiSection section) {
    this.section = section;
    this.data = section.data();
    this.budget = Budget.forBytes(data.size());
  }

  /** A reader of {@code section}. */
  public static CallFrameInfo of(CfiSection section) {
    return new CallFrameInfo(section);
  }

  /** The section the entries were read from. */
  public CfiSection section() {
    return section;
  }

  /** Receives the entries in section order; each method returns false to stop the walk. */
  public interface EntryVisitor {
    /** A CIE, in section order; return false to stop. */
    default boolean cie(Cie cie) {
      return true;
    }

    /** An FDE, in section order; return false to stop. */
    boolean fde(Fde fde);

    /** An entry that was skipped, or why the walk ended before the end of the section. */
    default boolean problem(GsymFormatException problem) {
      return true;
    }
  }

  /** Walks the section's entries (the rules are in the class comment). */
  public void parse(EntryVisitor v) {
    long size = data.size();
    long pos = 0;
    while (pos < size) {
      Header h;
      try {
        budget.spend(1, section, pos);
        h = header(pos);
      } catch (GsymFormatException e) {
        v.problem(e);
        return;
      }
      if (h.length == 0) {
        if (section.isEh()) {
          long rest = firstNonZero(h.end);
          if (rest >= 0) {
            v.problem(data.error(pos, section.name() + ": zero terminator at 0x" + Long.toHexString(pos) + " before the end of the section ("
                + (size - h.end) + " more bytes, not all zero)"));
          }
          return;
        }
        if (!v.problem(data.error(pos, section.name() + ": zero-length entry at 0x" + Long.toHexString(pos) + " skipped"))) return;
        pos = h.end;
        continue;
      }
      pos = h.end;
      try {
        if (h.isCie) {
          if (!v.cie(cie(h).cie())) return;
        } else {
          if (!v.fde(fde(h))) return;
        }
      } catch (GsymFormatException e) {
        if (!v.problem(e) || budget.exhausted()) return;
      }
    }
  }

  private long firstNonZero(long from) {
    for (long p = from; p < data.size(); p++) if (data.u8(p) != 0) return p;
    return -1;
  }

  /** The CIE at {@code offset}; a GsymFormatException when there is none or it cannot be read. */
  public Cie cieAt(long offset) {
    return cieEntry(offset, -1).cie();
  }

  /** The FDE at {@code offset} (with its CIE); a GsymFormatException when there is none or it cannot be read. */
  public Fde fdeAt(long offset) {
    if (offset < 0 || offset >= data.size()) {
      throw data.error(0, section.name() + ": no entry at 0x" + Long.toHexString(offset) + ", past the end of the section");
    }
    budget.spend(1, section, offset);
    Header h = header(offset);
    if (h.length == 0 || h.isCie) throw data.error(offset, section.name() + ": the entry at 0x" + Long.toHexString(offset) + " is not an FDE");
    return fde(h);
  }

  /**
   * The rows of {@code fde}'s table ({@link CfaProgram#rows(CfiSection, Fde)}), with its CIE's
   * instructions decoded once for all its FDEs and the work counted against this reading's budget.
   */
  public List<UnwindRow> rows(Fde fde) {
    CieEntry e = cieEntry(fde.cie().offset(), fde.offset());
    if (e.initial == null && e.initialError == null) {
      try {
        e.initial = CfaProgram.decode(section, e.cie, e.cie.instructions(), e.cie.end(), fde.pcBegin(), budget, e.cie.offset());
      } catch (GsymFormatException x) {
        // a set_loc in a CIE depends on the FDE (funcrel); anything else fails for every FDE alike
        if (budget.exhausted()) throw x;
        e.initialError = x;
      }
    }
    if (e.initialError != null) {
      throw data.error(fde.offset(), section.name() + " FDE at 0x" + Long.toHexString(fde.offset()) + ": the initial instructions of its CIE at 0x"
          + Long.toHexString(fde.cie().offset()) + " cannot be read: " + e.initialError.detail());
    }
    return CfaProgram.rows(section, fde, e.initial, budget);
  }

  /** An entry's initial length and id. {@code length} 0: a terminator (or a zero-length entry). */
  private record Header(long offset, boolean dwarf64, long length, long idPosition, long id, boolean isCie, long end, long fields) {}

  private Header header(long pos) {
    Cursor c = data.cursor(pos);
    if (!c.has(4)) throw data.error(pos, section.name() + ": " + (data.size() - pos) + " bytes at 0x" + Long.toHexString(pos) + " are too few for an entry");
    long length = c.u32();
    boolean dwarf64 = false;
    if (length == 0xffffffffL) {
      if (!c.has(8)) throw data.error(pos, section.name() + ": entry at 0x" + Long.toHexString(pos) + ": 64-bit length cut off by the end of the section");
      length = c.u64();
      dwarf64 = true;
    } else if (length >= 0xfffffff0L) {
      throw data.error(pos, section.name() + ": entry at 0x" + Long.toHexString(pos) + ": reserved initial length 0x" + Long.toHexString(length));
    }
    if (length == 0) return new Header(pos, dwarf64, 0, c.position(), 0, false, c.position(), c.position());
    if (Long.compareUnsigned(length, c.remaining()) > 0) {
      throw data.error(pos, section.name() + ": entry at 0x" + Long.toHexString(pos) + " has length 0x" + Long.toHexString(length)
          + ", past the end of the section (0x" + Long.toHexString(c.remaining()) + " bytes left)");
    }
    long end = c.position() + length;
    int idSize = dwarf64 && !section.isEh() ? 8 : 4;
    long idPosition = c.position();
    if (length < idSize) {
      // the walk can go on (the end is known); the entry itself is unusable
      return new Header(pos, dwarf64, length, idPosition, -1, false, end, -1);
    }
    long id = c.uN(idSize);
    boolean isCie = section.isEh() ? id == 0 : id == (idSize == 8 ? -1L : 0xffffffffL);
    return new Header(pos, dwarf64, length, idPosition, id, isCie, end, c.position());
  }

  private GsymFormatException entryError(Header h, long at, String what, String detail) {
    return data.error(at, section.name() + " " + what + " at 0x" + Long.toHexString(h.offset) + ": " + detail);
  }

  private Fde fde(Header h) {
    if (h.fields < 0) throw entryError(h, h.idPosition, "entry", "too short for its CIE pointer");
    long cieOffset = section.isEh() ? h.idPosition - h.id : h.id;
    if (cieOffset < 0 || cieOffset >= data.size()) {
      throw entryError(h, h.idPosition, "FDE", "CIE pointer 0x" + Long.toHexString(h.id) + " leads outside the section");
    }
    Cie cie = cieEntry(cieOffset, h.offset).cie();
    Cursor c = data.slice(0, h.end).cursor(h.fields);
    try {
      PointerEncoding.Bases bases = section.bases();
      long pcBegin = pointer(c, cie.fdeEncoding(), cie.addressSize(), bases, "initial location");
      int rangeEncoding = cie.fdeEncoding() == PointerEncoding.ALIGNED ? PointerEncoding.ABSPTR : cie.fdeEncoding() & 0x0f;
      long pcRange = PointerEncoding.read(c, rangeEncoding, cie.addressSize(), bases, "address range").value();
      Long lsda = null;
      if (cie.hasAugmentationData()) {
        long length = c.uleb();
        if (!c.has(length)) throw c.errorAt(c.position(), "augmentation data of " + Long.toUnsignedString(length) + " bytes runs past the end of the FDE");
        long dataEnd = c.position() + length;
        if (cie.lsdaEncoding() != PointerEncoding.OMIT) {
          Cursor a = data.slice(0, dataEnd).cursor(c.position());
          lsda = PointerEncoding.read(a, cie.lsdaEncoding(), cie.addressSize(), bases.withFunction(pcBegin), "LSDA pointer").value();
        }
        c.seek(dataEnd);
      }
      return new Fde(section.kind(), h.offset, h.dwarf64, h.length, cie, pcBegin, pcRange, lsda, c.position(), h.end);
    } catch (GsymFormatException e) {
      throw entryError(h, e.offset() - data.fileOffset(), "FDE", e.detail());
    }
  }

  /** A pointer, through the loaded image when its encoding is indirect. */
  private long pointer(Cursor c, int encoding, int addressSize, PointerEncoding.Bases bases, String what) {
    long at = c.position();
    PointerEncoding.Pointer p = PointerEncoding.read(c, encoding, addressSize, bases, what);
    if (!p.indirect()) return p.value();
    ByteView slot = section.memory() == null ? null : section.memory().at(p.value(), addressSize);
    if (slot == null) throw c.errorAt(at, what + ": indirect pointer to 0x" + Long.toHexString(p.value()) + ", which no section holds");
    return slot.uN(0, addressSize);
  }

  private static final class CieEntry {
    final Cie cie;
    List<CfaInstruction> initial;
    GsymFormatException initialError;

    CieEntry(Cie cie) {
      this.cie = cie;
    }

    Cie cie() {
      return cie;
    }
  }

  /** Parsed CIEs by offset, least recently used dropped first; failures are kept as well. */
  private static final class CieCache {
    private final LinkedHashMap<Long, Object> map = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    Object get(long offset) {
      return map.get(offset);
    }

    void put(long offset, Object value, long weight) {
      Object old = map.put(offset, value);
      if (old != null) bytes -= weight(old);
      bytes += weight;
      Iterator<Map.Entry<Long, Object>> it = map.entrySet().iterator();
      while ((map.size() > MAX_CACHED_CIES || bytes > MAX_CACHED_CIE_HEAP) && map.size() > 1 && it.hasNext()) {
        Map.Entry<Long, Object> e = it.next();
        if (e.getKey() == offset) continue; // unboxed: the entry just added stays
        bytes -= weight(e.getValue());
        it.remove();
      }
    }

    static long weight(Object v) {
      return v instanceof CieEntry e ? 32 * (e.cie.end() - e.cie.offset()) + 64 : 64;
    }
  }

  /** The CIE at {@code offset} (for the FDE at {@code fde}, or -1), parsed once. */
  private CieEntry cieEntry(long offset, long fde) {
    Object cached = cies.get(offset);
    if (cached == null) {
      try {
        budget.spend(1, section, offset);
        Header h = header(offset);
        if (h.length == 0 || !h.isCie) {
          throw data.error(offset, section.name() + ": the entry at 0x" + Long.toHexString(offset) + " is not a CIE");
        }
        cached = new CieEntry(parseCie(h));
      } catch (GsymFormatException e) {
        if (budget.exhausted()) throw e;
        cached = e;
      }
      cies.put(offset, cached, CieCache.weight(cached));
    }
    if (cached instanceof GsymFormatException e) {
      if (fde < 0) throw e;
      throw data.error(fde, section.name() + " FDE at 0x" + Long.toHexString(fde) + ": its CIE at 0x" + Long.toHexString(offset)
          + " is unusable: " + e.detail());
    }
    return (CieEntry) cached;
  }

  private CieEntry cie(Header h) {
    return cieEntry(h.offset, -1);
  }

  private Cie parseCie(Header h) {
    if (h.fields < 0) throw entryError(h, h.idPosition, "entry", "too short for its CIE id");
    Cursor c = data.slice(0, h.end).cursor(h.fields);
    try {
      int version = c.u8();
      if (version < 1 || version > 4) throw c.errorAt(c.position() - 1, "unsupported CIE version " + version);
      long augStart = c.position();
      long nul = augStart;
      while (nul < h.end && data.u8(nul) != 0) nul++;
      if (nul >= h.end) throw c.errorAt(augStart, "augmentation string runs past the end of the CIE");
      budget.spend(nul - augStart, section, h.offset);
      String augmentation = ByteStrings.decode(data.bytes(augStart, (int) Math.min(nul - augStart, Integer.MAX_VALUE - 16)));
      c.seek(nul + 1);
      int addressSize = section.addressSize();
      if (augmentation.startsWith("eh")) c.skip(addressSize); // GCC 2's exception table pointer
      int segmentSize = 0;
      if (version >= 4) {
        long at = c.position();
        addressSize = c.u8();
        if (addressSize != 1 && addressSize != 2 && addressSize != 4 && addressSize != 8) throw c.errorAt(at, "unsupported address size " + addressSize);
        segmentSize = c.u8();
        if (segmentSize != 0) throw c.errorAt(at + 1, "unsupported segment selector size " + segmentSize);
      }
      long codeAlignment = c.uleb();
      long dataAlignment = c.sleb();
      long raAt = c.position();
      long ra = version == 1 ? c.u8() : c.uleb();
      if (ra < 0 || ra > Integer.MAX_VALUE) throw c.errorAt(raAt, "return address register " + Long.toUnsignedString(ra) + " is too large");
      int fdeEncoding = PointerEncoding.ABSPTR;
      int lsdaEncoding = PointerEncoding.OMIT;
      int personalityEncoding = PointerEncoding.OMIT;
      Long personality = null;
      boolean signal = false;
      boolean bKey = false;
      boolean mte = false;
      boolean z = augmentation.startsWith("z");
      if (z) {
        long length = c.uleb();
        if (!c.has(length)) throw c.errorAt(c.position(), "augmentation data of " + Long.toUnsignedString(length) + " bytes runs past the end of the CIE");
        long dataEnd = c.position() + length;
        Cursor a = data.slice(0, dataEnd).cursor(c.position());
        for (int i = 1; i < augmentation.length(); i++) {
          char ch = augmentation.charAt(i);
          switch (ch) {
            case 'L' -> lsdaEncoding = encoding(a, "LSDA");
            case 'P' -> {
              personalityEncoding = encoding(a, "personality");
              if (personalityEncoding == PointerEncoding.OMIT) throw a.errorAt(a.position() - 1, "personality encoding DW_EH_PE_omit");
              personality = PointerEncoding.read(a, personalityEncoding, addressSize, section.bases(), "personality pointer").value();
            }
            case 'R' -> {
              fdeEncoding = encoding(a, "FDE pointer");
              if (fdeEncoding == PointerEncoding.OMIT) throw a.errorAt(a.position() - 1, "FDE pointer encoding DW_EH_PE_omit");
            }
            case 'S' -> signal = true;
            case 'B' -> bKey = true;
            case 'G' -> mte = true;
            default -> throw c.errorAt(augStart + i, "unknown augmentation character '" + ch + "' in \"" + printable(augmentation) + "\"");
          }
        }
        c.seek(dataEnd); // data the letters do not describe is skipped (as GCC's unwinder does)
      } else if (!augmentation.isEmpty() && !augmentation.equals("eh")) {
        throw c.errorAt(augStart, "unknown augmentation \"" + printable(augmentation) + "\"");
      }
      return new Cie(h.offset, h.dwarf64, h.length, version, augmentation, addressSize, segmentSize, codeAlignment, dataAlignment, (int) ra, z,
          fdeEncoding, lsdaEncoding, personalityEncoding, personality, signal, bKey, mte, c.position(), h.end);
    } catch (GsymFormatException e) {
      throw entryError(h, e.offset() - data.fileOffset(), "CIE", e.detail());
    }
  }

  private static int encoding(Cursor a, String what) {
    long at = a.position();
    if (!a.has(1)) throw a.errorAt(at, what + " encoding past the end of the augmentation data");
    int e = a.u8();
    if (!PointerEncoding.valid(e)) throw a.errorAt(at, "unknown " + what + " encoding 0x" + Integer.toHexString(e));
    return e;
  }

  private static String printable(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }
}
