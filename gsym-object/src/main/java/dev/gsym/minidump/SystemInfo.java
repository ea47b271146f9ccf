package dev.gsym.minidump;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.unwind.Arch;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_SYSTEM_INFO}: the CPU and operating system of the crashed process.
 *
 * <pre>
 *   0  u16 processor_architecture   PROCESSOR_ARCHITECTURE_* or Breakpad's 0x80xx values
 *   2  u16 processor_level
 *   4  u16 processor_revision
 *   6  u8  number_of_processors
 *   7  u8  product_type
 *   8  u32 major_version
 *  12  u32 minor_version
 *  16  u32 build_number
 *  20  u32 platform_id              VER_PLATFORM_* or Breakpad's 0x8xxx values
 *  24  u32 csd_version_rva          MINIDUMP_STRING (Linux: uname -srvmo; macOS: the build)
 *  28  u16 suite_mask
 *  30  u16 reserved2
 *  32  24 bytes of CPU information: x86 (u32 vendor_id[3], version_information,
 *      feature_information, amd_extended_cpu_features) or other (u64 processor_features[2])
 * </pre>
 *
 * @param cpuInfo the 24 bytes of CPU information as six u32 words (x86's view; for other CPUs the
 *     halves of {@code processorFeatures}, low first, then bytes 16..23 as two little-endian words)
 * @param processorFeatures the first 16 bytes as two u64 words (the other CPUs' view; for x86 the
 *     first four words, low first)
 * @param csdVersion the service pack / OS version string, or null when it cannot be read (Breakpad
 *     prints "(null)")
 */
public record SystemInfo(int processorArchitecture, int processorLevel, int processorRevision, int numberOfProcessors,
    int productType, long majorVersion, long minorVersion, long buildNumber, long platformId, long csdVersionRva,
    int suiteMask, int reserved2, List<Long> cpuInfo, List<Long> processorFeatures, String csdVersion) {
  /** Bytes in the on-disk structure (the stream's exact size). */
  public static final int SIZE = 56;

  /** Copies the lists. */
  public SystemInfo {
    cpuInfo = List.copyOf(cpuInfo);
    processorFeatures = List.copyOf(processorFeatures);
  }

  // processor_architecture
  public static final int CPU_X86 = 0;
  public static final int CPU_MIPS = 1;
  public static final int CPU_ALPHA = 2;
  public static final int CPU_PPC = 3;
  public static final int CPU_SHX = 4;
  public static final int CPU_ARM = 5;
  public static final int CPU_IA64 = 6;
  public static final int CPU_ALPHA64 = 7;
  public static final int CPU_MSIL = 8;
  public static final int CPU_AMD64 = 9;
  public static final int CPU_X86_WIN64 = 10;
  public static final int CPU_ARM64 = 12;
  public static final int CPU_SPARC = 0x8001;
  public static final int CPU_PPC64 = 0x8002;
  public static final int CPU_ARM64_OLD = 0x8003;
  public static final int CPU_MIPS64 = 0x8004;
  public static final int CPU_RISCV = 0x8005;
  public static final int CPU_RISCV64 = 0x8006;
  public static final int CPU_UNKNOWN = 0xffff;

  // platform_id
  public static final int OS_WIN32S = 0;
  public static final int OS_WIN32_WINDOWS = 1;
  public static final int OS_WIN32_NT = 2;
  public static final int OS_WIN32_CE = 3;
  public static final int OS_UNIX = 0x8000;
  public static final int OS_MAC_OS_X = 0x8101;
  public static final int OS_IOS = 0x8102;
  public static final int OS_LINUX = 0x8201;
  public static final int OS_SOLARIS = 0x8202;
  public static final int OS_ANDROID = 0x8203;
  public static final int OS_PS3 = 0x8204;
  public static final int OS_NACL = 0x8205;
  public static final int OS_FUCHSIA = 0x8206;

  static SystemInfo read(Minidump dump, DirectoryEntry e) {
    if (e.location().dataSize() != SIZE) {
      throw dump.error(e.offset() + 4, "system info stream of " + e.location().dataSize() + " bytes, not " + SIZE);
    }
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "system info stream");
    // The CPU information is a union: read in the dump's byte order as the CPU's own view (six u32
    // for x86, two u64 for the others), the other view then being those values' bytes in host
    // (little-endian) memory, as Breakpad's byte-swapped union gives it; bytes 16..23 are not part
    // of the other CPUs' view and stay as stored.
    List<Long> words = new ArrayList<>();
    List<Long> features;
    int arch = b.u16(0);
    if (arch == CPU_X86 || arch == CPU_X86_WIN64) {
      for (int i = 0; i < 6; i++) words.add(b.u32(32 + 4L * i));
      features = List.of(words.get(0) | words.get(1) << 32, words.get(2) | words.get(3) << 32);
    } else {
      features = List.of(b.u64(32), b.u64(40));
      for (long f : features) {
        words.add(f & 0xffffffffL);
        words.add(f >>> 32);
      }
      ByteView le = ByteView.of(b.bytes(48, 8), java.nio.ByteOrder.LITTLE_ENDIAN, b.source());
      words.add(le.u32(0));
      words.add(le.u32(4));
    }
    long csdRva = b.u32(24);
    String csd;
    try {
      csd = dump.string(csdRva, b.fileOffset() + 24, "system info CSD version");
    } catch (GsymFormatException unreadable) {
      csd = null; // Breakpad reads the string only when asked and prints (null) when it cannot
    }
    return new SystemInfo(b.u16(0), b.u16(2), b.u16(4), b.u8(6), b.u8(7), b.u32(8), b.u32(12), b.u32(16), b.u32(20),
        csdRva, b.u16(28), b.u16(30), words, features, csd);
  }

  /** Whether the CPU information is x86's layout (x86 and WoW64 dumps). */
  public boolean isX86CpuInfo() {
    return processorArchitecture == CPU_X86 || processorArchitecture == CPU_X86_WIN64;
  }

  /** Breakpad's CPU name ({@code x86}, {@code x86-64}, {@code arm}, {@code arm64}, ...), "" when unknown. */
  public String cpu() {
    return switch (processorArchitecture) {
      case CPU_X86, CPU_X86_WIN64 -> "x86";
      case CPU_AMD64 -> "x86-64";
      case CPU_PPC -> "ppc";
      case CPU_PPC64 -> "ppc64";
      case CPU_SPARC -> "sparc";
      case CPU_ARM -> "arm";
      case CPU_ARM64, CPU_ARM64_OLD -> "arm64";
      case CPU_RISCV -> "riscv";
      case CPU_RISCV64 -> "riscv64";
      default -> "";
    };
  }

  /** Breakpad's OS name ({@code windows}, {@code mac}, {@code linux}, ...), "" when unknown. */
  public String os() {
    return switch ((int) platformId) {
      case OS_WIN32_NT, OS_WIN32_WINDOWS -> "windows";
      case OS_MAC_OS_X -> "mac";
      case OS_IOS -> "ios";
      case OS_LINUX -> "linux";
      case OS_SOLARIS -> "solaris";
      case OS_ANDROID -> "android";
      case OS_PS3 -> "ps3";
      case OS_NACL -> "nacl";
      case OS_FUCHSIA -> "fuchsia";
      default -> "";
    };
  }

  /** The CPU vendor string of x86 dumps (cpuid 0: "GenuineIntel", "AuthenticAMD"), or null for other CPUs. */
  public String cpuVendor() {
    if (!isX86CpuInfo()) return null;
    StringBuilder sb = new StringBuilder(12);
    for (int i = 0; i < 3; i++) {
      for (int k = 0; k < 4; k++) {
        int c = (int) (cpuInfo.get(i) >>> (8 * k)) & 0xff;
        if (c == 0) return sb.toString(); // snprintf("%c") of a NUL ends the C string
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  /** The architecture for unwinding, or null for a CPU this library does not unwind. */
  public Arch arch() {
    return switch (processorArchitecture) {
      case CPU_X86, CPU_X86_WIN64 -> Arch.X86;
      case CPU_AMD64 -> Arch.X86_64;
      case CPU_ARM -> Arch.ARM;
      case CPU_ARM64, CPU_ARM64_OLD -> Arch.AARCH64;
      case CPU_PPC -> Arch.PPC;
      case CPU_PPC64 -> Arch.PPC64;
      case CPU_MIPS -> Arch.MIPS;
      case CPU_MIPS64 -> Arch.MIPS64;
      case CPU_RISCV -> Arch.RISCV32;
      case CPU_RISCV64 -> Arch.RISCV64;
      default -> null;
    };
  }

  /** Bytes in a pointer of the dumped process (4 or 8), or 0 for an unknown CPU. */
  public int pointerSize() {
    return switch (processorArchitecture) {
      case CPU_X86, CPU_X86_WIN64, CPU_ARM, CPU_PPC, CPU_MIPS, CPU_RISCV, CPU_SPARC -> 4;
      case CPU_AMD64, CPU_ARM64, CPU_ARM64_OLD, CPU_PPC64, CPU_MIPS64, CPU_RISCV64, CPU_IA64, CPU_ALPHA64 -> 8;
      default -> 0;
    };
  }

  /** The CPU type bits of a context ({@code MD_CONTEXT_*}) this architecture implies, or 0 (Breakpad's table). */
  public int contextCpuType() {
    return switch (processorArchitecture) {
      case CPU_X86 -> CpuContext.CONTEXT_X86;
      case CPU_MIPS -> CpuContext.CONTEXT_MIPS;
      case CPU_MIPS64 -> CpuContext.CONTEXT_MIPS64;
      case CPU_ALPHA -> CpuContext.CONTEXT_ALPHA;
      case CPU_PPC -> CpuContext.CONTEXT_PPC;
      case CPU_PPC64 -> CpuContext.CONTEXT_PPC64;
      case CPU_SHX -> CpuContext.CONTEXT_SHX;
      case CPU_ARM -> CpuContext.CONTEXT_ARM;
      case CPU_ARM64 -> CpuContext.CONTEXT_ARM64;
      case CPU_ARM64_OLD -> CpuContext.CONTEXT_ARM64_OLD;
      case CPU_IA64 -> CpuContext.CONTEXT_IA64;
      case CPU_AMD64 -> CpuContext.CONTEXT_AMD64;
      case CPU_SPARC -> CpuContext.CONTEXT_SPARC;
      case CPU_RISCV -> CpuContext.CONTEXT_RISCV;
      case CPU_RISCV64 -> CpuContext.CONTEXT_RISCV64;
      default -> 0;
    };
  }
}
