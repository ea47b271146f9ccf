package dev.gsym.format;

/** Exposes MergedFunctionsInfoTest's builders to tests in other packages. */
public final class MergedFunctionsInfoTestAccess {
  private MergedFunctionsInfoTestAccess() {}

  public static byte[] nestedMerged(int levels) {
    return MergedFunctionsInfoTest.nestedMerged(levels);
  }
}
