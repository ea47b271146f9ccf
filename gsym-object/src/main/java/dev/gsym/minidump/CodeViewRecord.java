package dev.gsym.minidump;

import dev.gsym.ByteStrings;
import dev.gsym.io.ByteView;
import java.util.HexFormat;

/**
 * A module's CodeView record ({@code MINIDUMP_MODULE.CvRecord}), which names the module's debug
 * file and identity. The first u32 is the signature:
 *
 * <pre>
 * RSDS (PDB 7.0)    u32 'RSDS', GUID signature (u32, u16, u16, u8[8]), u32 age, char pdb_file_name[] (NUL-terminated)
 * NB10 (PDB 2.0)    u32 'NB10', u32 offset, u32 signature (time_t), u32 age, char pdb_file_name[] (NUL-terminated)
 * BpEL (ELF)        u32 'BpEL', u8 build_id[] (the rest of the record: the GNU build-id note's bytes)
 * </pre>
 *
 * Other signatures (CodeView 4.1 {@code NB09}, 5.0 {@code NB11}, a writer's own) are kept as bytes.
 */
public sealed interface CodeViewRecord {
  /** "RSDS": a PDB 7.0 record (GUID, age, PDB name). */
  int SIGNATURE_PDB70 = 0x53445352; // "RSDS"
  /** "NB10": a PDB 2.0 record (signature, age, PDB name). */
  int SIGNATURE_PDB20 = 0x3031424e; // "NB10"
  /** "BpEL": Breakpad's ELF build-id record. */
  int SIGNATURE_ELF = 0x4270454c; // "BpEL"
  /** "NB09": CodeView 4.1 (not decoded). */
  int SIGNATURE_CV41 = 0x3930424e; // "NB09"
  /** "NB11": CodeView 5.0 (not decoded). */
  int SIGNATURE_CV50 = 0x3131424e; // "NB11"
  /** Largest record Breakpad reads; a larger one counts as missing. */
  int MAX_SIZE = 32768;

  /** A copy of the record's bytes as they are in the file. */
  byte[] bytes();

  /** A PDB 7.0 record: the PDB's GUID and age, and its file name (the bytes before the first NUL). */
  record Pdb70(Guid guid, long age, String pdbFileName, RecordBytes raw) implements CodeViewRecord {
    @Override
    public byte[] bytes() {
      return raw.copy();
    }
  }

  /** A PDB 2.0 record. */
  record Pdb20(long offset, long signature, long age, String pdbFileName, RecordBytes raw) implements CodeViewRecord {
    @Override
    public byte[] bytes() {
      return raw.copy();
    }
  }

  /** Breakpad's ELF record: the module's build-id (the record's bytes after the signature). */
  record Elf(RecordBytes raw) implements CodeViewRecord {
    @Override
    public byte[] bytes() {
      return raw.copy();
    }

    /** A copy of the build-id. */
    public byte[] buildId() {
      byte[] b = raw.copy();
      return java.util.Arrays.copyOfRange(b, 4, b.length);
    }

    /** The build-id in lower-case hex (Breakpad's code identifier of ELF modules). */
    public String buildIdHex() {
      return HexFormat.of().formatHex(buildId());
    }
  }

  /** A record of another signature (or of 4 bytes or fewer, whose signature Breakpad does not read). */
  record Other(long signature, RecordBytes raw) implements CodeViewRecord {
    @Override
    public byte[] bytes() {
      return raw.copy();
    }
  }

  /** A record's bytes, immutable, compared by content. */
  final class RecordBytes {
    private final byte[] bytes;

    RecordBytes(byte[] bytes) {
      this.bytes = bytes.clone();
    }

    /** The record's bytes (a copy). */
    public byte[] copy() {
      return bytes.clone();
    }

    /** The record's size in bytes. */
    public int size() {
      return bytes.length;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof RecordBytes r && java.util.Arrays.equals(r.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return HexFormat.of().formatHex(bytes);
    }
  }

  /**
   * Reads the record at {@code location} as Breakpad's {@code MinidumpModule::GetCVRecord} does:
   * null when it is larger than {@link #MAX_SIZE} or not in the file, or when a PDB record is
   * shorter than its fixed part plus one byte or its last byte is not NUL (Breakpad then treats the
   * module as having no debug information). The signature is read only from records longer than 4
   * bytes.
   */
  static CodeViewRecord read(Minidump dump, Location location) {
    if (location.dataSize() == 0 || location.dataSize() > MAX_SIZE || !location.inside(dump.size())) return null;
    ByteView b = dump.file().slice(location.rva(), location.dataSize());
    int n = (int) b.size();
    byte[] bytes = b.bytes(0, n);
    long signature = n > 4 ? b.u32(0) : 0xffffffffL;
    RecordBytes raw = new RecordBytes(bytes);
    if (signature == Integer.toUnsignedLong(SIGNATURE_PDB70)) {
      if (n < 24 + 1 || bytes[n - 1] != 0) return null;
      return new Pdb70(Guid.read(b, 4), b.u32(20), cString(bytes, 24), raw);
    } else if (signature == Integer.toUnsignedLong(SIGNATURE_PDB20)) {
      if (n < 16 + 1 || bytes[n - 1] != 0) return null;
      return new Pdb20(b.u32(4), b.u32(8), b.u32(12), cString(bytes, 16), raw);
    } else if (signature == Integer.toUnsignedLong(SIGNATURE_ELF)) {
      return new Elf(raw);
    }
    return new Other(signature, raw);
  }

  private static String cString(byte[] b, int from) {
    int end = from;
    while (end < b.length && b[end] != 0) end++;
    return ByteStrings.decode(b, from, end - from);
  }
}
