package dev.gsym.stackwalk;

import java.util.ArrayList;
import java.util.List;

/**
 * The modules of a process as Breakpad's processor keeps them: a map of non-overlapping address
 * ranges built from the dump's list in its order (a module that cannot be stored, such as a
 * duplicate, is left out; with {@link #of(List, boolean) truncation} the lower of two overlapping
 * modules is cut where the other begins, as for Linux and Android dumps), listed in address order,
 * with the main module (the dump's first) found again by its base address.
 */
public final class CodeModules {
  private final RangeMap<CodeModule> map;
  private final List<CodeModule> ordered;
  private final long mainBase;
  private final boolean hasMain;

  private CodeModules(RangeMap<CodeModule> map, long mainBase, boolean hasMain) {
    this.map = map;
    List<CodeModule> o = new ArrayList<>();
    for (RangeMap.Range<CodeModule> r : map.ranges()) o.add(r.value());
    this.ordered = List.copyOf(o);
    this.mainBase = mainBase;
    this.hasMain = hasMain;
  }

  /**
   * The map of {@code modules} (in the dump's order; the first is the main module): each stored in
   * turn, overlapping ones refused, or with {@code truncateLower} the lower of two overlapping
   * ranges cut where the other begins.
   */
  public static CodeModules of(List<CodeModule> modules, boolean truncateLower) {
    RangeMap<CodeModule> map = new RangeMap<>(truncateLower ? RangeMap.Merge.TRUNCATE_LOWER : RangeMap.Merge.EXCLUSIVE);
    for (CodeModule m : modules) map.store(m.base(), m.size(), m);
    return new CodeModules(map, modules.isEmpty() ? 0 : modules.getFirst().base(), !modules.isEmpty());
  }

  /** No modules. */
  public static CodeModules empty() {
    return of(List.of(), false);
  }

  /** The module whose (possibly truncated) range holds {@code address}, or null. */
  public CodeModule forAddress(long address) {
    RangeMap.Range<CodeModule> r = map.retrieve(address);
    return r == null ? null : r.value();
  }

  /** The modules in address order. */
  public List<CodeModule> inAddressOrder() {
    return ordered;
  }

  /** The main module (the module holding the base address of the dump's first module), or null. */
  public CodeModule main() {
    return hasMain ? forAddress(mainBase) : null;
  }

  /** The number of modules. */
  public int size() {
    return ordered.size();
  }
}
