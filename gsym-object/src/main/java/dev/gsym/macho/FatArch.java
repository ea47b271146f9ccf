package dev.gsym.macho;

/**
 * One {@code fat_arch} / {@code fat_arch_64} entry of a universal file: the slice's CPU and where
 * its Mach-O lies ({@code offset}, {@code size}, alignment 2^{@code align}).
 */
public record FatArch(int index, int cpuType, int cpuSubtype, long offset, long size, long align) {
  public static final int CPU_SUBTYPE_MASK = 0xff000000;

  /** The name llvm gives the slice (MachOObjectFile::getArchTriple's architecture), "" if none. */
  public String archName() {
    return MachOArch.archTripleName(cpuType, cpuSubtype);
  }

  /**
   * The slice's {@code -arch} flag name (llvm's ObjectForArch::getArchFlagName: "armv7m" where
   * {@link #archName} is "thumbv7m"), "" if none.
   */
  public String archFlagName() {
    return MachOArch.archFlagName(cpuType, cpuSubtype);
  }

  /** llvm's "cputype (N) cpusubtype (M)" naming of the slice in its messages. */
  String describe() {
    return "cputype (" + cpuType + ") cpusubtype (" + (cpuSubtype & ~CPU_SUBTYPE_MASK) + ")";
  }
}
