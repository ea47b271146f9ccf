package dev.gsym.macho;

/** llvm's names for Mach-O CPU types and subtypes (MachOObjectFile::getArch and getArchTriple). */
final class MachOArch {
  static final int CPU_TYPE_I386 = 7;
  static final int CPU_TYPE_X86_64 = 0x01000007;
  static final int CPU_TYPE_ARM = 12;
  static final int CPU_TYPE_ARM64 = 0x0100000c;
  static final int CPU_TYPE_ARM64_32 = 0x0200000c;
  static final int CPU_TYPE_POWERPC = 18;
  static final int CPU_TYPE_POWERPC64 = 0x01000012;

  private MachOArch() {}

  /**
   * The name of the {@code Triple::ArchType} llvm's MachOObjectFile::getArch gives a CPU type, as
   * {@code Triple::getArchName} spells it for a triple built from the type alone (makeTriple).
   */
  static String tripleArch(int cpuType) {
    return switch (cpuType) {
      case CPU_TYPE_I386 -> "i386";
      case CPU_TYPE_X86_64 -> "x86_64";
      case CPU_TYPE_ARM -> "arm";
      case CPU_TYPE_ARM64 -> "aarch64";
      case CPU_TYPE_ARM64_32 -> "aarch64_32";
      case CPU_TYPE_POWERPC -> "powerpc";
      case CPU_TYPE_POWERPC64 -> "powerpc64";
      default -> "unknown";
    };
  }

  /**
   * The architecture component of MachOObjectFile::getArchTriple (what llvm-gsymutil prints for a
   * slice of a universal file and matches {@code --arch} against), "" when llvm has no triple.
   */
  static String archTripleName(int cpuType, int cpuSubtype) {
    int sub = cpuSubtype & ~FatArch.CPU_SUBTYPE_MASK;
    return switch (cpuType) {
      case CPU_TYPE_I386 -> sub == 3 ? "i386" : "";
      case CPU_TYPE_X86_64 -> switch (sub) {
        case 3 -> "x86_64";
        case 8 -> "x86_64h";
        default -> "";
      };
      case CPU_TYPE_ARM -> switch (sub) {
        case 5 -> "armv4t";
        case 7 -> "armv5e";
        case 8 -> "xscale";
        case 6 -> "armv6";
        case 14 -> "armv6m";
        case 9 -> "armv7";
        case 16 -> "thumbv7em";
        case 12 -> "armv7k";
        case 15 -> "thumbv7m";
        case 11 -> "armv7s";
        default -> "";
      };
      case CPU_TYPE_ARM64 -> switch (sub) {
        case 0 -> "arm64";
        case 2 -> "arm64e";
        default -> "";
      };
      case CPU_TYPE_ARM64_32 -> sub == 1 ? "arm64_32" : "";
      case CPU_TYPE_POWERPC -> sub == 0 ? "ppc" : "";
      case CPU_TYPE_POWERPC64 -> sub == 0 ? "ppc64" : "";
      default -> "";
    };
  }

  /**
   * The {@code -arch} flag name of MachOObjectFile::getArchTriple (MachOUniversalBinary's
   * getArchFlagName, which getObjectForArch matches names against): the triple's architecture but
   * for armv7m and armv7em (whose triples are thumbv7m and thumbv7em), "" when llvm has none.
   */
  static String archFlagName(int cpuType, int cpuSubtype) {
    if (cpuType == CPU_TYPE_ARM) {
      switch (cpuSubtype & ~FatArch.CPU_SUBTYPE_MASK) {
        case 15 -> {
          return "armv7m";
        }
        case 16 -> {
          return "armv7em";
        }
        default -> {
          // as the triple
        }
      }
    }
    return archTripleName(cpuType, cpuSubtype);
  }
}
