package dev.gsym.cli;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The values one command was given, by {@link Opt}: filled by picocli (through the setters of the
 * model {@link dev.gsym.cli.gsymutil.CommandModel} builds) or by {@link
 * dev.gsym.cli.gsymutil.QuickArgs}. Picocli stores what it likes (a {@code false} flag, an empty
 * list it fills later); reads and {@link #equals} see only what was given. (An array by ordinal,
 * not an EnumMap: that one finds the constants by reflection, which a one-shot lookup would pay
 * for.)
 */
public final class Args {
  private final Object[] raw = new Object[Opt.COUNT];

  /** The value last set, as set. */
  Object get(Opt o) {
    return raw[o.ordinal()];
  }

  public void set(Opt o, Object value) {
    raw[o.ordinal()] = value;
  }

  /** Adds a value to a {@link Opt.Kind#LIST}, {@link Opt.Kind#MODE} or positional entry. */
  @SuppressWarnings("unchecked")
  public void add(Opt o, String value) {
    if (raw[o.ordinal()] == null) raw[o.ordinal()] = new ArrayList<String>();
    ((List<String>) raw[o.ordinal()]).add(value);
  }

  /** True if {@code o} was given (a flag set, a value or at least one list element). */
  public boolean has(Opt o) {
    return given(raw[o.ordinal()]);
  }

  public boolean flag(Opt o) {
    return Boolean.TRUE.equals(raw[o.ordinal()]);
  }

  /** The value of a {@link Opt.Kind#VALUE} entry, or the last one of a {@link Opt.Kind#MODE}; null if not given. */
  public String value(Opt o) {
    Object v = raw[o.ordinal()];
    if (v instanceof List<?> l) return l.isEmpty() ? null : (String) l.getLast();
    return (String) v;
  }

  /** The values of a {@link Opt.Kind#LIST} or positional entry, in order; empty if none. */
  @SuppressWarnings("unchecked")
  public List<String> values(Opt o) {
    Object v = raw[o.ordinal()];
    return v == null ? List.of() : (List<String>) v;
  }

  /** The value of an {@link Opt.Kind#INT} entry, or null. */
  Integer intValue(Opt o) {
    return (Integer) raw[o.ordinal()];
  }

  /** The --threads value (default: the number of processors), checked. */
  public int threads() {
    Integer n = intValue(Opt.THREADS);
    if (n == null) return Runtime.getRuntime().availableProcessors();
    if (n < 1) throw CliException.tool("--threads must be at least 1, got " + n);
    return n;
  }

  private static boolean given(Object v) {
    return v != null && !Boolean.FALSE.equals(v) && !(v instanceof List<?> l && l.isEmpty());
  }

  /** The given values only. */
  private Map<Opt, Object> given() {
    EnumMap<Opt, Object> m = new EnumMap<>(Opt.class);
    for (Opt o : Opt.values()) {
      if (given(raw[o.ordinal()])) m.put(o, raw[o.ordinal()]);
    }
    return m;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Args a && given().equals(a.given());
  }

  @Override
  public int hashCode() {
    return given().hashCode();
  }

  @Override
  public String toString() {
    return given().toString();
  }
}
