package dev.gsym.dwarf.read;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The unit index of a DWARF package file ({@code .dwp}): {@code .debug_cu_index} or
 * {@code .debug_tu_index}, in the GNU DebugFission layout (version 2, a u32 version) or DWARF 5's
 * (version 5, a u16 version and 2 bytes of padding). Header: version, column count C, unit count U,
 * slot count S (u32 each); then S u64 signatures, S u32 row numbers (0 = empty slot, else 1..U),
 * C u32 section ids, U rows of C u32 offsets and U rows of C u32 sizes: each unit's contribution
 * to each column's {@code .dwo} section.
 *
 * <p>Read as llvm's DWARFUnitIndex reads it ({@link #find} is its {@code getFromHash}: open
 * addressing with llvm's probe sequence), but everything llvm would crash on, loop on or silently
 * ignore is a {@link dev.gsym.GsymFormatException} naming the package, the section and the
 * offset: a short section, an unknown version, row numbers past U or used twice, units no slot
 * names, no or two info columns, and probe sequences that never end.
 */
public final class UnitIndex {
  /** A section kind of an index column (DWARF 5 ids; the GNU version 2 ids are mapped onto them). */
  public enum Kind {
    INFO, TYPES, ABBREV, LINE, LOC, LOCLISTS, STR_OFFSETS, MACINFO, MACRO, RNGLISTS, UNKNOWN;

    static Kind of(long id, int version) {
      if (version == 5) {
        return switch ((int) Math.min(id, Integer.MAX_VALUE)) {
          case 1 -> INFO;
          case 3 -> ABBREV;
          case 4 -> LINE;
          case 5 -> LOCLISTS;
          case 6 -> STR_OFFSETS;
          case 7 -> MACRO;
          case 8 -> RNGLISTS;
          default -> UNKNOWN; // 2 was DW_SECT_TYPES, which DWARF 5 dropped
        };
      }
      return switch ((int) Math.min(id, Integer.MAX_VALUE)) {
        case 1 -> INFO;
        case 2 -> TYPES;
        case 3 -> ABBREV;
        case 4 -> LINE;
        case 5 -> LOC;
        case 6 -> STR_OFFSETS;
        case 7 -> MACINFO;
        case 8 -> MACRO;
        default -> UNKNOWN;
      };
    }
  }

  /** A contribution of one unit to one section: {@code length} bytes at {@code offset}. */
  public record Contribution(long offset, long length) {}

  /** One used slot: the unit's signature (DWO id or type signature) and its row of contributions. */
  public final class Entry {
    private final long signature;
    private final int row;
    /** Offset in the index section of the slot's signature, for messages. */
    private final long slotOffset;

    private Entry(long signature, int row, long slotOffset) {
      this.signature = signature;
      this.row = row;
      this.slotOffset = slotOffset;
    }

    public long signature() {
      return signature;
    }

    /** The unit's contribution to the column of {@code kind} (the first such column), or null. */
    public Contribution contribution(Kind kind) {
      for (int c = 0; c < kinds.length; c++) {
        if (kinds[c] == kind) return column(c);
      }
      return null;
    }

    /** The unit's contribution to the info column ({@code .debug_info.dwo}, or {@code .debug_types.dwo}). */
    public Contribution info() {
      return column(infoColumn);
    }

    private Contribution column(int c) {
      long at = rowsStart + ((long) row * kinds.length + c) * 4;
      return new Contribution(data.u32(at), data.u32(at + (long) units * kinds.length * 4));
    }

    /** Where this entry's slot is in the index section (for messages). */
    public long slotOffset() {
      return slotOffset;
    }

    /** "DWARF package P: .debug_cu_index at 0x..." for messages about this entry. */
    public String describe() {
      return what + " at 0x" + Long.toHexString(slotOffset);
    }
  }

  private final ByteView data;
  private final String what;
  private final int version;
  private final int units;
  private final int slots;
  private final Kind[] kinds;
  private final int infoColumn;
  /** Offset of the offsets table (the sizes table follows it). */
  private final long rowsStart;
  /** Per slot: its entry, null for an empty slot. */
  private final Entry[] entryOfSlot;
  private final List<Entry> entries;

  /**
   * Parses an index section.
   *
   * @param data the section's bytes (a view of the package file, so errors carry file offsets)
   * @param what "DWARF package PATH: .debug_cu_index", the start of every message
   * @param typeUnits true for {@code .debug_tu_index} (whose info column is {@code .debug_types.dwo}
   *     in version 2)
   */
  public static UnitIndex parse(ByteView data, String what, boolean typeUnits) {
    return new UnitIndex(data, what, typeUnits);
  }

  private UnitIndex(ByteView data, String what, boolean typeUnits) {
    this.data = data;
    this.what = what;
    long size = data.size();
    if (size < 16) throw fail(0, "header needs 16 bytes, the section has " + size);
    int v;
    if (data.u32(0) == 2) {
      v = 2;
    } else if (data.u16(0) == 5) {
      v = 5;
    } else {
      throw fail(0, "unsupported index version (u32 0x" + Long.toHexString(data.u32(0)) + "; 2 or 5 expected)");
    }
    this.version = v;
    long columns = data.u32(4), unitCount = data.u32(8), slotCount = data.u32(12);
    // Bounded before any multiplication: each count fits the section.
    if (columns > size / 4 || unitCount > size / 8 || slotCount > size / 12) {
      throw fail(4, columns + " columns, " + unitCount + " units and " + slotCount + " slots do not fit in " + size + " bytes");
    }
    long need = 16 + slotCount * 12 + (2 * unitCount + 1) * 4 * columns;
    if (need > size) {
      throw fail(4, columns + " columns, " + unitCount + " units and " + slotCount + " slots need " + need + " bytes, the section has " + size);
    }
    if (unitCount > 0 && columns == 0) throw fail(4, unitCount + " units but no columns");
    this.units = (int) unitCount;
    this.slots = (int) slotCount;
    long sigs = 16, rowNumbers = sigs + slotCount * 8, ids = rowNumbers + slotCount * 4;
    this.rowsStart = ids + columns * 4;
    Kind info = typeUnits && v == 2 ? Kind.TYPES : Kind.INFO;
    this.kinds = new Kind[(int) columns];
    int ic = -1;
    for (int c = 0; c < columns; c++) {
      kinds[c] = Kind.of(data.u32(ids + 4L * c), v);
      if (kinds[c] == info) {
        if (ic >= 0) throw fail(ids + 4L * c, "two " + info + " columns (" + ic + " and " + c + ")");
        ic = c;
      }
    }
    if (ic < 0 && columns > 0) throw fail(ids, "no " + info + " column among the " + columns);
    this.infoColumn = ic;
    this.entryOfSlot = new Entry[(int) slotCount];
    long[] slotOfRow = new long[(int) unitCount];
    java.util.Arrays.fill(slotOfRow, -1);
    List<Entry> es = new ArrayList<>();
    for (int s = 0; s < slotCount; s++) {
      long at = rowNumbers + 4L * s;
      long r = data.u32(at);
      if (r == 0) continue;
      if (r > unitCount) throw fail(at, "slot " + s + " names unit row " + r + ", the index has " + unitCount);
      if (slotOfRow[(int) r - 1] >= 0) throw fail(at, "slot " + s + " names unit row " + r + ", as slot " + slotOfRow[(int) r - 1] + " does");
      slotOfRow[(int) r - 1] = s;
      Entry e = new Entry(data.u64(sigs + 8L * s), (int) r - 1, sigs + 8L * s);
      entryOfSlot[s] = e;
      es.add(e);
    }
    for (int r = 0; r < unitCount; r++) {
      if (slotOfRow[r] < 0) throw fail(rowNumbers, "no slot names unit row " + (r + 1) + " of " + unitCount);
    }
    this.entries = Collections.unmodifiableList(es);
  }

  private dev.gsym.GsymFormatException fail(long at, String detail) {
    return data.error(at, what + " at 0x" + Long.toHexString(at) + ": " + detail);
  }

  /** 2 (GNU DebugFission) or 5 (DWARF 5). */
  public int version() {
    return version;
  }

  /** True when llvm treats the index as absent (no slots): units are then matched by their DWO id. */
  public boolean isEmpty() {
    return slots == 0;
  }

  /** The used slots, in slot order. */
  public List<Entry> entries() {
    return entries;
  }

  /**
   * The entry of {@code signature}, or null: llvm's probe (start at {@code signature & (S-1)},
   * step {@code ((signature >> 32) & (S-1)) | 1}) until the signature or an empty slot. A probe
   * sequence that meets neither within S steps, where llvm would loop forever, is an error.
   */
  public Entry find(long signature) {
    if (slots == 0) return null;
    long mask = slots - 1L;
    long h = signature & mask;
    long step = ((signature >>> 32) & mask) | 1;
    for (int i = 0; i < slots; i++) {
      Entry e = entryOfSlot[(int) h]; // h <= S-1 whatever S is
      if (e == null) return null;
      if (e.signature == signature) return e;
      h = (h + step) & mask;
    }
    throw fail(16, "looking up signature 0x" + Long.toHexString(signature) + " in " + slots
        + " slots meets neither it nor an empty slot");
  }

  /** The start of every message about this index ("DWARF package PATH: .debug_cu_index"). */
  public String what() {
    return what;
  }
}
