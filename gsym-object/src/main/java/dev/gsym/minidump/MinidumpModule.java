package dev.gsym.minidump;

import java.util.Arrays;
import java.util.List;

/**
 * {@code MINIDUMP_MODULE}: one loaded module (executable or shared library) of the module list,
 * with its name and debug records read.
 *
 * <pre>
 *   0  u64 base_of_image
 *   8  u32 size_of_image
 *  12  u32 checksum
 *  16  u32 time_date_stamp
 *  20  u32 module_name_rva          MINIDUMP_STRING
 *  24  VS_FIXEDFILEINFO version_info (52 bytes)
 *  76  MINIDUMP_LOCATION_DESCRIPTOR cv_record
 *  84  MINIDUMP_LOCATION_DESCRIPTOR misc_record
 *  92  u32 reserved0[2], u32 reserved1[2]
 * </pre>
 *
 * The identifiers are Breakpad's, as minidump_stackwalk prints them and as symbol stores file the
 * symbols under: {@link #debugFile()} / {@link #debugIdentifier()} (the {@code MODULE} line of a
 * {@code .sym} file) and {@link #codeFile()} / {@link #codeIdentifier()}.
 *
 * @param offset the record's absolute file offset
 * @param name the module's path (the code file)
 * @param codeView the CodeView record, or null (none, or one Breakpad cannot read)
 * @param misc the miscellaneous debug record, or null
 * @param hasDebugInfo false when the module announces a CodeView or misc record that cannot be
 *     read: Breakpad then gives it no code identifier, debug file or debug identifier
 * @param platformId the dump's {@link SystemInfo#platformId()}, or -1 without a readable system info
 */
public record MinidumpModule(long offset, long baseOfImage, long sizeOfImage, long checksum, long timeDateStamp,
    long moduleNameRva, VersionInfo versionInfo, Location cvRecord, Location miscRecord, List<Long> reserved, String name,
    CodeViewRecord codeView, MiscDebugRecord misc, boolean hasDebugInfo, long platformId) {
  /** Bytes in the on-disk structure. */
  public static final int SIZE = 108;

  /** Copies the lists. */
  public MinidumpModule {
    reserved = List.copyOf(reserved);
  }

  /** The module's path, as the dump names it. */
  public String codeFile() {
    return name;
  }

  /** Whether {@code address} lies in {@code [base, base + size)}. */
  public boolean contains(long address) {
    return Long.compareUnsigned(address, baseOfImage) >= 0 && Long.compareUnsigned(address - baseOfImage, sizeOfImage) < 0;
  }

  /** The ELF build-id of Breakpad's {@code BpEL} record, or null. */
  public byte[] elfBuildId() {
    return codeView instanceof CodeViewRecord.Elf elf ? elf.buildId() : null;
  }

  /**
   * Breakpad's code identifier: Windows: time stamp and image size ({@code %08X%x}); Linux,
   * Android and Fuchsia: the ELF build-id in hex; other known systems {@code id}; "" for an unknown
   * system or a module without debug information.
   */
  public String codeIdentifier() {
    if (!hasDebugInfo) return "";
    switch ((int) platformId) {
      case SystemInfo.OS_WIN32_NT, SystemInfo.OS_WIN32_WINDOWS -> {
        return String.format("%08X%x", timeDateStamp, sizeOfImage);
      }
      case SystemInfo.OS_ANDROID, SystemInfo.OS_FUCHSIA, SystemInfo.OS_LINUX -> {
        if (codeView instanceof CodeViewRecord.Elf elf) return elf.buildIdHex();
        return "id";
      }
      case SystemInfo.OS_MAC_OS_X, SystemInfo.OS_IOS, SystemInfo.OS_SOLARIS, SystemInfo.OS_NACL, SystemInfo.OS_PS3 -> {
        return "id";
      }
      default -> {
        return "";
      }
    }
  }

  /**
   * Breakpad's debug file: the PDB name of a PDB record, the code file for an ELF record, else the
   * file named by the misc record; "" when none applies.
   */
  public String debugFile() {
    if (!hasDebugInfo) return "";
    String file = switch (codeView) {
      case CodeViewRecord.Pdb70 p -> p.pdbFileName();
      case CodeViewRecord.Pdb20 p -> p.pdbFileName();
      case CodeViewRecord.Elf e -> name;
      case null, default -> "";
    };
    if (file.isEmpty() && misc != null && misc.fileName() != null) file = misc.fileName();
    return file;
  }

  /**
   * Breakpad's debug identifier: GUID and age of a PDB 7.0 record; signature and age of a PDB 2.0
   * one ({@code %08X%x}); for an ELF record the first 16 bytes of the build-id (zero-padded) read as
   * a little-endian GUID, with age 0 (what symbol files of ELF modules are filed under); "" else.
   */
  public String debugIdentifier() {
    if (!hasDebugInfo) return "";
    return switch (codeView) {
      case CodeViewRecord.Pdb70 p -> p.guid().debugId(p.age());
      case CodeViewRecord.Pdb20 p -> String.format("%08X%x", p.signature(), p.age());
      case CodeViewRecord.Elf e -> elfDebugId(e.buildId());
      case null, default -> "";
    };
  }

  /** The Breakpad debug identifier of an ELF build-id (as dump_syms computes it for the MODULE line). */
  public static String elfDebugId(byte[] buildId) {
    byte[] g = Arrays.copyOf(buildId, 16);
    long data1 = (g[0] & 0xffL) | (g[1] & 0xffL) << 8 | (g[2] & 0xffL) << 16 | (g[3] & 0xffL) << 24;
    int data2 = (g[4] & 0xff) | (g[5] & 0xff) << 8;
    int data3 = (g[6] & 0xff) | (g[7] & 0xff) << 8;
    return new Guid(data1, data2, data3, Arrays.copyOfRange(g, 8, 16)).debugId(0);
  }

  /** The version resource's file version ({@code a.b.c.d}), or "". */
  public String version() {
    return versionInfo.fileVersion();
  }
}
