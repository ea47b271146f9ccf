package dev.gsym.dwarf.read;

import static dev.gsym.dwarf.read.DwarfConstants.*;

import dev.gsym.format.AddressRange;
import dev.gsym.io.ByteView;
import dev.gsym.io.Cursor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One unit of .debug_info (32- and 64-bit DWARF, versions 2 to 5) with its DIE tree indexed as
 * flat arrays: offset, abbreviation, parent and next sibling per DIE. Attribute values are decoded
 * on demand. The tree is parsed on first use and can be {@link #release released} once the unit is
 * converted (it is parsed again, identically, if something needs it later), so a converter holds
 * the trees of the units in flight, not of the whole file.
 *
 * <p>Positions: a DIE is named either by its index in the unit (an int: its place in the pre-order,
 * what the flat arrays, {@link Die} and the transformer's per-DIE tables use) or by its .debug_info
 * offset (a long: what references hold and messages print; the unit-relative reference forms are
 * made absolute when read). Offsets into other sections are typed where they cross an API ({@link
 * DebugLineOffset}, {@link DebugAbbrevOffset}); per-DIE paths keep primitives.
 */
public final class DwarfUnit {
  public static final int UT_COMPILE = 1, UT_TYPE = 2, UT_PARTIAL = 3, UT_SKELETON = 4, UT_SPLIT_COMPILE = 5,
      UT_SPLIT_TYPE = 6;

  private final DwarfFile dwarf;
  private final long offset;
  private final long end;
  private final int version;
  private final int unitType;
  private final int addressSize;
  /** 4 for 32-bit DWARF, 8 for 64-bit DWARF. */
  private final int offsetSize;
  private final Form.Params formParams;
  /**
   * By standard form code: the size of a value that {@link Form#value} makes from a number of fixed
   * size ({@link Form#fixedNumber}), 0 for the implicit forms, -1 for the others.
   */
  private final int[] numberSizes;
  private final DwarfFile.AbbreviationSet abbrevs;
  /** .debug_info up to this unit's end: cursors over it have absolute positions and stop at the unit end. */
  private final ByteView unitView;
  /** Offset of the unit DIE. */
  private final long firstDie;
  /** The DIE tree; null until first use and after {@link #release}. */
  private volatile Tree tree;
  /** DWO id from a DWARF 5 skeleton or split unit header, else null. */
  private final Long headerDwoId;
  /**
   * For a unit of a DWARF package: its row of the package's unit index (where its abbreviations,
   * string offsets and range lists start in the package's sections); null otherwise.
   */
  private final UnitIndex.Entry indexEntry;
  /** For a unit of a .dwo file: the skeleton unit in the executable (address base, base address). */
  private volatile DwarfUnit skeleton;
  // Bases (read from the unit DIE on first use).
  private long strOffsetsBase = -1;
  private long addrBase = -1;
  private long rnglistsBase = -1;

  DwarfUnit(DwarfFile dwarf, long offset) {
    this(dwarf, offset, null);
  }

  /**
   * A unit of a DWARF package located through {@code entry} (null: an ordinary unit). As llvm's
   * DWARFUnitHeader::applyIndexEntry: the header's abbreviation offset must be 0, the index must
   * give the unit's exact length and an abbreviation column, whose offset is the unit's
   * abbreviation table.
   */
  DwarfUnit(DwarfFile dwarf, long offset, UnitIndex.Entry entry) {
    this.dwarf = dwarf;
    this.indexEntry = entry;
    this.offset = offset;
    ByteView info = dwarf.sections().info();
    Cursor c = info.cursor(offset);
    long length = c.u32();
    int lengthSize = 4;
    if (length == 0xffffffffL) {
      length = c.u64();
      lengthSize = 12;
      offsetSize = 8;
    } else if (length >= 0xfffffff0L) {
      throw info.error(offset, "invalid unit length 0x" + Long.toHexString(length));
    } else {
      offsetSize = 4;
    }
    if (length < 0 || length > info.size() - offset - lengthSize) {
      throw info.error(offset, "unit length 0x" + Long.toHexString(length) + " past end of section");
    }
    this.end = offset + lengthSize + length;
    this.version = c.u16();
    if (version < 2 || version > 5) throw info.error(offset + 4, "unsupported DWARF version " + version);
    long abbrevOffset;
    Long dwoId = null;
    if (version >= 5) {
      unitType = c.u8();
      addressSize = c.u8();
      abbrevOffset = readN(c, offsetSize);
      if (unitType == UT_SKELETON || unitType == UT_SPLIT_COMPILE) {
        dwoId = c.u64();
      } else if (unitType == UT_TYPE || unitType == UT_SPLIT_TYPE) {
        c.skip(8 + offsetSize);
      }
    } else {
      unitType = UT_COMPILE;
      abbrevOffset = readN(c, offsetSize);
      addressSize = c.u8();
    }
    if (addressSize != 1 && addressSize != 2 && addressSize != 4 && addressSize != 8) {
      throw info.error(offset + (version >= 5 ? 7 : 10), "unsupported address size " + addressSize);
    }
    if (c.position() > end) throw info.error(offset, "unit header longer than the unit");
    if (entry != null) {
      String unit = String.format("DWARF package unit at offset 0x%08x", offset);
      if (abbrevOffset != 0) throw info.error(offset, unit + " has a non-zero abbreviation offset");
      if (entry.info().length() != end - offset) {
        throw info.error(offset, unit + " has an inconsistent index (expected: " + entry.info().length() + ", actual: " + (end - offset)
            + "; " + entry.describe() + ")");
      }
      UnitIndex.Contribution abbrev = entry.contribution(UnitIndex.Kind.ABBREV);
      if (abbrev == null) throw info.error(offset, unit + " missing abbreviation column (" + entry.describe() + ")");
      abbrevOffset = abbrev.offset();
    }
    this.formParams = new Form.Params(version, addressSize, offsetSize);
    this.numberSizes = new int[Form.STANDARD_CODES];
    for (int fc = 0; fc < numberSizes.length; fc++) {
      Form f = Form.of(fc);
      numberSizes[fc] = f == null ? -1 : f.encoding == Form.Encoding.IMPLICIT ? 0 : f.fixedNumber(formParams) ? f.size(formParams) : -1;
    }
    this.headerDwoId = dwoId;
    this.abbrevs = dwarf.abbreviations(new DebugAbbrevOffset(abbrevOffset));
    this.unitView = info.slice(0, end);
    this.firstDie = c.position();
  }

  /**
   * The flat DIE tree of a unit: per DIE its offset, the length of its abbreviation code (its
   * attributes follow), its abbreviation (an index into {@link #abbrevs}: primitive arrays only,
   * which the garbage collector does not scan), parent and next sibling.
   */
  private static final class Tree {
    long[] dieOffset;
    byte[] codeLength;
    int[] dieAbbrev;
    int[] parent;
    int[] nextSibling;
    int count;
    /**
     * The abbreviations {@link #dieAbbrev} indexes: the set's dense table (indexed by code), or for a
     * set without one, those seen, in the order seen.
     */
    Abbreviation[] abbrevs;
    /**
     * Per abbreviation code (below the dense table's length), the offset of each attribute's value
     * from the DIE's first attribute while every attribute before it has a fixed size, else -1; null
     * for codes not seen. Filled while parsing, before the tree is shared.
     */
    int[][] attrOffsets;

    Tree(int capacity) {
      dieOffset = new long[capacity];
      codeLength = new byte[capacity];
      dieAbbrev = new int[capacity];
      parent = new int[capacity];
      nextSibling = new int[capacity];
    }

    int add(long at, int codeLen, int abbrev, int par) {
      if (count == dieOffset.length) {
        int n = count * 2;
        dieOffset = Arrays.copyOf(dieOffset, n);
        codeLength = Arrays.copyOf(codeLength, n);
        dieAbbrev = Arrays.copyOf(dieAbbrev, n);
        parent = Arrays.copyOf(parent, n);
        nextSibling = Arrays.copyOf(nextSibling, n);
      }
      dieOffset[count] = at;
      codeLength[count] = (byte) codeLen;
      dieAbbrev[count] = abbrev;
      parent[count] = par;
      nextSibling[count] = -1;
      return count++;
    }

    Abbreviation abbrev(int i) {
      return abbrevs[dieAbbrev[i]];
    }

    /** Where DIE {@code i}'s attributes start. */
    long attrOffset(int i) {
      return dieOffset[i] + codeLength[i];
    }
  }

  /** The DIE tree, parsed now if it is not in memory. */
  private Tree tree() {
    Tree t = tree;
    if (t == null) {
      synchronized (this) {
        t = tree;
        if (t == null) {
          t = parseTree();
          tree = t;
        }
      }
    }
    return t;
  }

  /** Drops the DIE tree (it is parsed again on the next access). */
  public void release() {
    tree = null;
  }

  /**
   * The DWO id linking a skeleton unit to its split unit (DWARF 5 unit header, or GNU
   * DW_AT_GNU_dwo_id in DWARF 4), or null for an ordinary unit.
   */
  public Long dwoId() {
    if (headerDwoId != null) return headerDwoId;
    if (version >= 5) return null;
    AttributeValue v = find(0, AT_GNU_DWO_ID);
    return v == null ? null : v.asUnsigned();
  }

  /** Makes this unit (of a .dwo file) take its address base and base address from {@code s}. */
  void attachSkeleton(DwarfUnit s) {
    skeleton = s;
  }

  /** True while the DIE tree is in memory. */
  boolean isLoaded() {
    return tree != null;
  }

  /** Parses the DIE tree now, so malformed DIEs are reported here rather than on first use. */
  public void load() {
    tree();
  }

  private Tree parseTree() {
    ByteView info = dwarf.sections().info();
    // sized for an average of ~12 bytes per DIE, so that few units grow their arrays (larger ones double)
    Tree t = new Tree((int) Math.min(1 << 18, Math.max(16, (unitView.size() - firstDie) / 12)));
    Abbreviation[] abbrevByCode = abbrevs.byCode();
    // a set whose codes are not dense (none seen in practice) gets a table of its own
    boolean dense = abbrevByCode.length > 0;
    java.util.Map<Long, Integer> sparseIndex = dense ? null : new java.util.HashMap<>();
    List<Abbreviation> sparse = dense ? null : new ArrayList<>();
    // Per abbreviation code: 0 unknown, -1 some attribute has a variable size, else 1 + the
    // attributes' total size (most DIEs are then skipped with one bounds check).
    int[] fixed = new int[abbrevByCode.length];
    int[][] attrOffsets = t.attrOffsets = new int[abbrevByCode.length][];
    Cursor c = unitView.cursor(firstDie);
    int[] stack = new int[16];
    int depth = 0;
    int lastAtDepth = -1; // last DIE seen at the current depth (for sibling links)
    int[] lastStack = new int[16];
    while (c.remaining() > 0) {
      long at = c.position();
      long code = c.uleb();
      if (code == 0) {
        if (depth == 0) {
          if (t.count == 0) throw info.error(at, "unit has no DIEs");
          continue; // padding after the unit DIE
        }
        depth--;
        lastAtDepth = lastStack[depth];
        continue;
      }
      Abbreviation ab;
      int abIndex;
      if (dense) {
        ab = code > 0 && code < abbrevByCode.length ? abbrevByCode[(int) code] : null;
        abIndex = (int) code;
      } else {
        ab = abbrevs.map().get(code);
        Integer seen = ab == null ? null : sparseIndex.get(code);
        if (seen == null && ab != null) {
          seen = sparseIndex.size();
          sparseIndex.put(code, seen);
          sparse.add(ab);
        }
        abIndex = seen == null ? -1 : seen;
      }
      if (ab == null) throw info.error(at, "invalid abbreviation code " + code);
      if (depth == 0 && t.count > 0) throw info.error(at, "more than one DIE at the top level of the unit");
      int idx = t.add(at, (int) (c.position() - at), abIndex, depth == 0 ? -1 : stack[depth - 1]);
      if (lastAtDepth >= 0) t.nextSibling[lastAtDepth] = idx;
      lastAtDepth = idx;
      int f = code < fixed.length ? fixed[(int) code] : -1;
      if (f == 0) {
        int size = fixedSize(ab);
        f = size < 0 ? -1 : size + 1;
        fixed[(int) code] = f;
        attrOffsets[(int) code] = attributeOffsets(ab);
      }
      if (f > 0 && c.has(f - 1)) c.skip(f - 1);
      else skipAttributes(c, ab); // variable sizes, or an error to report at the right attribute
      if (ab.hasChildren()) {
        if (depth == stack.length) {
          stack = Arrays.copyOf(stack, depth * 2);
          lastStack = Arrays.copyOf(lastStack, depth * 2);
        }
        stack[depth] = idx;
        lastStack[depth] = idx;
        depth++;
        lastAtDepth = -1;
      }
    }
    if (t.count == 0) throw info.error(offset, "unit has no DIEs");
    t.abbrevs = dense ? abbrevByCode : sparse.toArray(new Abbreviation[0]);
    return t;
  }

  /**
   * Where the unit's line table starts: DW_AT_stmt_list of the unit DIE (sec_offset, or a constant
   * in DWARF 2 and 3), or null without one.
   */
  public DebugLineOffset stmtList() {
    AttributeValue sl = find(0, AT_STMT_LIST);
    Long off = sl instanceof AttributeValue.SecOffset so ? Long.valueOf(so.offset()) : sl == null ? null : sl.asUnsigned();
    return off == null ? null : new DebugLineOffset(off);
  }

  /** What the sizes of this unit's attribute values depend on. */
  Form.Params formParams() {
    return formParams;
  }

  /** 4 for 32-bit DWARF units, 8 for 64-bit ones. */
  public int offsetSize() {
    return offsetSize;
  }

  /** Skips one attribute value of form code {@code form} ({@link Form#skip}). */
  private void skipForm(Cursor c, int form) {
    form(c, form).skip(c, formParams);
  }

  /** The {@link Form} of a form code from an abbreviation; an unknown code is an error at {@code c}. */
  private static Form form(Cursor c, int code) {
    Form f = Form.of(code);
    if (f == null) throw c.errorHere("unknown form 0x" + Integer.toHexString(code));
    return f;
  }

  /** Total size of {@code ab}'s attribute values if none has a variable size, else -1. */
  private int fixedSize(Abbreviation ab) {
    int total = 0;
    for (int form : ab.forms()) {
      int n = formSize(form);
      if (n < 0) return -1;
      total += n;
    }
    return total;
  }

  /** Each attribute value's offset from the first while all before it have fixed sizes, else -1. */
  private int[] attributeOffsets(Abbreviation ab) {
    int[] forms = ab.forms();
    int[] offs = new int[forms.length];
    int pos = 0;
    for (int j = 0; j < forms.length; j++) {
      offs[j] = pos;
      if (pos >= 0) {
        int n = formSize(forms[j]);
        pos = n < 0 ? -1 : pos + n;
      }
    }
    return offs;
  }

  /** The size of a value of form code {@code form} in this unit, or -1 if it varies or the form is unknown. */
  private int formSize(int form) {
    if (form >= 0 && form < numberSizes.length && numberSizes[form] > 0) return numberSizes[form];
    Form f = Form.of(form);
    return f == null ? -1 : f.size(formParams); // unknown: skipped form by form, which reports it
  }

  private void skipAttributes(Cursor c, Abbreviation ab) {
    for (int f : ab.forms()) skipForm(c, f);
  }

  /** Reads one attribute value of form code {@code form} at the cursor ({@link Form#read}). */
  private AttributeValue readForm(Cursor c, int form, long implicitConst) {
    return form(c, form).read(c, this, implicitConst);
  }

  private static long readN(Cursor c, int n) {
    long at = c.position();
    if (!c.has(n)) throw c.errorAt(at, "unexpected end of data reading " + n + " bytes");
    long v = uN(c.view(), at, n);
    c.skip(n);
    return v;
  }

  private String strx(long index) {
    long base = strOffsetsBase();
    ByteView so = dwarf.sections().strOffsets();
    long at = base + index * offsetSize();
    if (index < 0 || index > so.size() || base < 0 || !so.has(at, offsetSize())) {
      throw so.error(Math.max(0, Math.min(at, so.size())), "string index " + index + " past end of .debug_str_offsets");
    }
    return dwarf.string(dwarf.sections().str(), uN(so, at, offsetSize));
  }

  private long addrx(long index) {
    long base = addrBase();
    ByteView a = dwarf.sections().addr();
    long at = base + index * addressSize;
    if (index < 0 || index > a.size() || base < 0 || !a.has(at, addressSize)) {
      throw a.error(Math.max(0, Math.min(at, a.size())), "address index " + index + " past end of .debug_addr");
    }
    return uN(a, at, addressSize);
  }

  private long strOffsetsBase() {
    if (strOffsetsBase < 0) {
      if (indexEntry != null) {
        // llvm (determineStringOffsetsTableContributionDWO): the unit's contribution, past the
        // DWARF 5 contribution header; DW_AT_str_offsets_base is not used in split units
        strOffsetsBase = contributionOffset(UnitIndex.Kind.STR_OFFSETS) + (version >= 5 ? 2L * offsetSize : 0);
      } else {
        strOffsetsBase = baseAttr(AT_STR_OFFSETS_BASE, version >= 5 ? 2L * offsetSize : 0);
      }
    }
    return strOffsetsBase;
  }

  /** The offset of this package unit's contribution to a section (0 without that column). */
  private long contributionOffset(UnitIndex.Kind kind) {
    UnitIndex.Contribution c = indexEntry.contribution(kind);
    return c == null ? 0 : c.offset();
  }

  private long addrBase() {
    DwarfUnit s = skeleton;
    if (s != null) return s.addrBase();
    if (addrBase < 0) {
      long b = baseAttr(AT_ADDR_BASE, -1);
      if (b < 0) b = baseAttr(AT_GNU_ADDR_BASE, version >= 5 ? 2L * offsetSize : 0);
      addrBase = b;
    }
    return addrBase;
  }

  long rnglistsBase() {
    if (rnglistsBase < 0) {
      // a package unit's range lists: its contribution past the list table header (llvm)
      rnglistsBase = indexEntry != null ? contributionOffset(UnitIndex.Kind.RNGLISTS) + 2L * offsetSize + 4
          : baseAttr(AT_RNGLISTS_BASE, version >= 5 ? 2L * offsetSize + 4 : 0);
    }
    return rnglistsBase;
  }

  private long baseAttr(int at, long dflt) {
    Tree t = tree();
    Abbreviation ab = t.abbrev(0);
    Cursor c = unitView.cursor(t.attrOffset(0));
    int[] attrs = ab.attributes();
    for (int i = 0; i < attrs.length; i++) {
      if (attrs[i] == at && ab.forms()[i] == Form.SEC_OFFSET.code) return readN(c, offsetSize);
      if (attrs[i] == at && ab.forms()[i] == Form.DATA4.code) return c.u32();
      skipForm(c, ab.forms()[i]);
    }
    return dflt;
  }

  public DwarfFile dwarf() {
    return dwarf;
  }

  public long offset() {
    return offset;
  }

  public long endOffset() {
    return end;
  }

  public int version() {
    return version;
  }

  public int unitType() {
    return unitType;
  }

  /** True for type units (DWARF 5 type and split type units). */
  public boolean isTypeUnit() {
    return unitType == UT_TYPE || unitType == UT_SPLIT_TYPE;
  }

  public int addressSize() {
    return addressSize;
  }

  public int dieCount() {
    return tree().count;
  }

  /** The unit DIE. */
  public Die unitDie() {
    return new Die(this, 0);
  }

  /** The DIE at an absolute .debug_info offset inside this unit, or null. */
  public Die dieAt(long off) {
    Tree t = tree();
    int i = Arrays.binarySearch(t.dieOffset, 0, t.count, off);
    return i >= 0 ? new Die(this, i) : null;
  }

  long dieOffset(int i) {
    return tree().dieOffset[i];
  }

  /** The abbreviation of DIE {@code i}. */
  Abbreviation abbreviation(int i) {
    return tree().abbrev(i);
  }

  /** The tag of DIE {@code i}. */
  public int tag(int i) {
    return tree().abbrev(i).tag();
  }

  boolean hasChildren(int i) {
    return tree().abbrev(i).hasChildren();
  }

  /** The index of DIE {@code i}'s parent, or -1 for the unit DIE. */
  public int parent(int i) {
    return tree().parent[i];
  }

  int firstChild(int i) {
    Tree t = tree();
    return t.abbrev(i).hasChildren() && i + 1 < t.count && t.parent[i + 1] == i ? i + 1 : -1;
  }

  int nextSibling(int i) {
    return tree().nextSibling[i];
  }

  /** True if DIE {@code i} itself has attribute {@code at} (no value is decoded). */
  public boolean has(int i, int at) {
    for (int a : tree().abbrev(i).attributes()) {
      if (a == at) return true;
    }
    return false;
  }

  /** The first value of attribute {@code at} on DIE {@code i}, or null. */
  AttributeValue find(int i, int at) {
    Tree t = tree();
    Abbreviation ab = t.abbrev(i);
    int[] attrs = ab.attributes();
    int k = -1;
    for (int j = 0; j < attrs.length; j++) {
      if (attrs[j] == at) {
        k = j;
        break;
      }
    }
    if (k < 0) return null;
    long code = ab.code();
    int[] offs = code > 0 && code < t.attrOffsets.length ? t.attrOffsets[(int) code] : null;
    if (offs != null && offs[k] >= 0) { // every attribute before it has a fixed size
      // the common numbers straight from the section (the tree's parse checked they are inside the unit)
      int fc = ab.forms()[k];
      int n = fc >= 0 && fc < numberSizes.length ? numberSizes[fc] : -1;
      if (n > 0) return Form.of(fc).value(uN(unitView, t.attrOffset(i) + offs[k], n), this);
      if (n == 0) {
        Form f = Form.of(fc);
        return f.value(f.meaning == Form.Meaning.TRUE ? 1 : ab.implicitConsts()[k], this);
      }
      return readForm(unitView.cursor(t.attrOffset(i) + offs[k]), ab.forms()[k], ab.implicitConsts()[k]);
    }
    Cursor c = unitView.cursor(t.attrOffset(i));
    for (int j = 0; j < k; j++) skipForm(c, ab.forms()[j]);
    return readForm(c, ab.forms()[k], ab.implicitConsts()[k]);
  }

  /** The address ranges of a DW_AT_ranges value (rnglistx, or an offset in .debug_rnglists / .debug_ranges). */
  List<AddressRange> ranges(AttributeValue v) {
    long base = unitBaseAddress();
    if (v instanceof AttributeValue.ListIndex li && li.form() == Form.RNGLISTX.code) {
      ByteView rl = dwarf.sections().rnglists();
      long b = rnglistsBase();
      long at = b + li.index() * offsetSize();
      if (li.index() < 0 || li.index() > rl.size() || !rl.has(at, offsetSize())) throw rl.error(Math.max(0, Math.min(at, rl.size())), "range list index " + li.index() + " past end of .debug_rnglists");
      return RangeLists.rnglist(rl, b + uN(rl, at, offsetSize), addressSize, base, this::addrx);
    }
    long off;
    if (v instanceof AttributeValue.SecOffset so) off = so.offset();
    else if (v.asUnsigned() != null) off = v.asUnsigned();
    else return List.of();
    if (version >= 5) return RangeLists.rnglist(dwarf.sections().rnglists(), off, addressSize, base, this::addrx);
    DwarfUnit s = skeleton;
    if (s != null) off += s.baseAttr(AT_GNU_RANGES_BASE, 0); // GNU split DWARF 4: the skeleton's .debug_ranges
    return RangeLists.ranges(dwarf.sections().ranges(), off, addressSize, base);
  }

  private long unitBaseAddress() {
    DwarfUnit s = skeleton;
    if (s != null) return s.unitBaseAddress();
    AttributeValue lo = find(0, AT_LOW_PC);
    return lo instanceof AttributeValue.Address a ? a.value() : 0;
  }

  /** Decodes an address index (DW_FORM_addrx) through this unit's .debug_addr base. */
  long address(long index) {
    return addrx(index);
  }

  /** Decodes a string index (DW_FORM_strx) through this unit's .debug_str_offsets base. */
  String string(long index) {
    return strx(index);
  }

  /** An unsigned integer of 1 to 8 bytes in the view's byte order. */
  static long uN(ByteView v, long at, int n) {
    if (n == 1 || n == 2 || n == 4 || n == 8) return v.uN(at, n);
    if (!v.has(at, n)) throw v.error(at, "unexpected end of data reading " + n + " bytes");
    long r = 0;
    boolean le = v.order() == java.nio.ByteOrder.LITTLE_ENDIAN;
    for (int i = 0; i < n; i++) {
      long b = v.u8(at + (le ? n - 1 - i : i));
      r = (r << 8) | b;
    }
    return r;
  }
}
