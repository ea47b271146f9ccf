package dev.gsym.dwarf.read;

import static dev.gsym.dwarf.read.DwarfConstants.*;

import dev.gsym.format.AddressRange;
import java.util.ArrayList;
import java.util.List;

/** A handle on one DIE of a {@link DwarfUnit} (unit + index); cheap to create. */
public record Die(DwarfUnit unit, int index) {
  /** Bound on reference chains (specification / abstract origin) followed for one lookup. */
  static final int MAX_REFERENCE_CHAIN = 64;

  public long offset() {
    return unit.dieOffset(index);
  }

  public int tag() {
    return unit.tag(index);
  }

  public Die parent() {
    int p = unit.parent(index);
    return p < 0 ? null : new Die(unit, p);
  }

  /** The children in DIE order. */
  public List<Die> children() {
    List<Die> out = new ArrayList<>();
    for (int c = unit.firstChild(index); c >= 0; c = unit.nextSibling(c)) out.add(new Die(unit, c));
    return out;
  }

  /** The value of {@code at} on this DIE only, or null. */
  public AttributeValue find(int at) {
    return unit.find(index, at);
  }

  /** The DIE an attribute refers to, or null. */
  public Die ref(int at) {
    AttributeValue v = find(at);
    if (!(v instanceof AttributeValue.Ref r)) return null;
    long off = r.infoOffset();
    // most references stay in their unit: no search for the unit
    if (off >= unit.offset() && off < unit.endOffset()) return unit.dieAt(off);
    return unit.dwarf().dieAt(off);
  }

  /** The first child, or null. */
  public Die firstChild() {
    int c = unit.firstChild(index);
    return c < 0 ? null : new Die(unit, c);
  }

  /** The next sibling, or null after the last child of the parent. */
  public Die nextSibling() {
    int s = unit.nextSibling(index);
    return s < 0 ? null : new Die(unit, s);
  }

  /**
   * The value of the first of {@code attrs} found on this DIE or, following DW_AT_specification
   * and DW_AT_abstract_origin (LLVM's findRecursively order), on the DIEs they refer to.
   */
  public AttributeValue findRecursively(int... attrs) {
    return findRecursivelyWithDie(attrs) instanceof Found f ? f.value : null;
  }

  /** A value found by {@link #findRecursivelyWithDie}, with the DIE that holds it. */
  public record Found(Die die, AttributeValue value) {}

  /** As {@link #findRecursively}, also telling which DIE the value came from. */
  public Found findRecursivelyWithDie(int... attrs) {
    for (int a : attrs) { // this DIE first: most lookups end here, with nothing to follow
      AttributeValue v = find(a);
      if (v != null) return new Found(this, v);
    }
    Die r1 = ref(AT_ABSTRACT_ORIGIN);
    Die r2 = ref(AT_SPECIFICATION);
    if (r1 == null && r2 == null) return null;
    // Depth first, the specification before the abstract origin (LIFO), each DIE once, at most
    // MAX_REFERENCE_CHAIN DIEs in all.
    Die[] work = new Die[8];
    long[] seen = new long[8];
    int nWork = 0;
    int nSeen = 0;
    seen[nSeen++] = offset();
    int steps = 1;
    Die d = this;
    while (true) {
      for (Die r : new Die[] {r1, r2}) {
        if (r == null) continue;
        long off = r.offset();
        boolean dup = false;
        for (int j = 0; j < nSeen && !dup; j++) dup = seen[j] == off;
        if (dup) continue;
        if (nSeen == seen.length) seen = java.util.Arrays.copyOf(seen, nSeen * 2);
        seen[nSeen++] = off;
        if (nWork == work.length) work = java.util.Arrays.copyOf(work, nWork * 2);
        work[nWork++] = r;
      }
      if (nWork == 0 || steps++ >= MAX_REFERENCE_CHAIN) return null;
      d = work[--nWork];
      for (int a : attrs) {
        AttributeValue v = d.find(a);
        if (v != null) return new Found(d, v);
      }
      r1 = d.ref(AT_ABSTRACT_ORIGIN);
      r2 = d.ref(AT_SPECIFICATION);
    }
  }

  /** A string attribute looked up recursively, or null. */
  public String stringRecursively(int... attrs) {
    return findRecursively(attrs) instanceof AttributeValue.Str s ? s.value() : null;
  }

  /** Short name (DW_AT_name, recursively) or null. */
  public String shortName() {
    return stringRecursively(AT_NAME);
  }

  /** Linkage name (DW_AT_MIPS_linkage_name / DW_AT_linkage_name, recursively) or null. */
  public String linkageName() {
    return stringRecursively(AT_MIPS_LINKAGE_NAME, AT_LINKAGE_NAME);
  }

  /** Address ranges: low_pc/high_pc (address or offset form) or DW_AT_ranges, in DWARF order. */
  public List<AddressRange> addressRanges() {
    AttributeValue lo = find(AT_LOW_PC);
    if (lo instanceof AttributeValue.Address la) {
      AttributeValue hi = find(AT_HIGH_PC);
      if (hi instanceof AttributeValue.Address ha) return List.of(new AddressRange(la.value(), ha.value()));
      if (hi != null && hi.asUnsigned() != null) return List.of(new AddressRange(la.value(), la.value() + hi.asUnsigned()));
    }
    AttributeValue r = find(AT_RANGES);
    if (r != null) return unit.ranges(r);
    return List.of();
  }
}
