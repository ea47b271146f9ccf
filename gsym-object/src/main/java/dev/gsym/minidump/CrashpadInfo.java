package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code MinidumpCrashpadInfo}: Crashpad's report and client ids and its annotations (process-wide
 * and per module). Strings are Crashpad's UTF-8 strings (u32 length, bytes, at most {@link
 * Minidump#MAX_STRING_LENGTH} bytes).
 *
 * <pre>
 *   0  u32 version
 *   4  GUID report_id
 *  20  GUID client_id
 *  36  MINIDUMP_LOCATION_DESCRIPTOR simple_annotations    SimpleStringDictionary
 *  44  MINIDUMP_LOCATION_DESCRIPTOR module_list           ModuleCrashpadInfoList
 *  52  u32 reserved                                       (newer writers)
 *  56  u64 address_mask                                   (newer writers)
 *
 * SimpleStringDictionary:  u32 count, then count × (u32 key RVA, u32 value RVA)
 * ModuleCrashpadInfoList:  u32 count, then count × (u32 minidump_module_list_index, location of a ModuleCrashpadInfo)
 * ModuleCrashpadInfo:      u32 version, location list_annotations (StringList),
 *                          location simple_annotations (SimpleStringDictionary),
 *                          location annotation_objects (AnnotationList)
 * StringList:              u32 count, then count × u32 string RVA
 * AnnotationList:          u32 count, then count × (u32 name RVA, u16 type, u16 reserved, u32 value RVA);
 *                          a value is u32 length, then that many bytes
 * </pre>
 *
 * Checked as Breakpad checks it: at least the 52 bytes before {@code reserved}; each list present
 * (non-zero size) is read in full, every count bounded by the file, every string readable.
 * A dictionary's later duplicate keys are dropped.
 *
 * @param simpleAnnotations the process's annotations, in file order
 */
public record CrashpadInfo(long version, Guid reportId, Guid clientId, Map<String, String> simpleAnnotations,
    List<ModuleInfo> modules, long reserved, long addressMask) {
  /** Bytes before {@code reserved}: the smallest stream Breakpad reads. */
  public static final int MIN_SIZE = 52;

  /** Copies the annotations and modules. */
  public CrashpadInfo {
    simpleAnnotations = Collections.unmodifiableMap(new LinkedHashMap<>(simpleAnnotations));
    modules = List.copyOf(modules);
  }

  /**
   * A module's Crashpad information.
   *
   * @param moduleIndex the module's index in the module list
   */
  public record ModuleInfo(long moduleIndex, long version, List<String> listAnnotations, Map<String, String> simpleAnnotations,
      List<Annotation> annotations) {
    /** Copies the annotations. */
    public ModuleInfo {
      listAnnotations = List.copyOf(listAnnotations);
      simpleAnnotations = Collections.unmodifiableMap(new LinkedHashMap<>(simpleAnnotations));
      annotations = List.copyOf(annotations);
    }
  }

  /** An annotation object: its name, type (1: a string) and value bytes. */
  public record Annotation(String name, int type, byte[] value) {
    public static final int TYPE_STRING = 1;

    /** Copies the value. */
    public Annotation {
      value = value.clone();
    }

    /** A copy of the value. */
    @Override
    public byte[] value() {
      return value.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Annotation a && a.name.equals(name) && a.type == type && java.util.Arrays.equals(a.value, value);
    }

    @Override
    public int hashCode() {
      return name.hashCode() * 31 + java.util.Arrays.hashCode(value);
    }
  }

  static CrashpadInfo read(Minidump dump, DirectoryEntry e) {
    long size = e.location().dataSize();
    if (size < MIN_SIZE) throw dump.error(e.offset() + 4, "Crashpad info stream of " + size + " bytes, less than " + MIN_SIZE);
    ByteView b = dump.bytes(e.location(), e.offset() + 4, "Crashpad info stream");
    long at = b.fileOffset();
    Location simple = new Location(b.u32(36), b.u32(40));
    Location moduleList = new Location(b.u32(44), b.u32(48));
    long reserved = size >= 56 ? b.u32(52) : 0;
    long mask = size >= 64 ? b.u64(56) : 0;
    Map<String, String> annotations = simple.dataSize() != 0 ? dictionary(dump, simple.rva(), at + 40, "Crashpad simple annotations")
        : Map.of();
    List<ModuleInfo> modules = new ArrayList<>();
    if (moduleList.dataSize() != 0) {
      ByteView file = dump.file();
      long count = count(dump, moduleList.rva(), 12, at + 48, "Crashpad module list");
      for (int i = 0; i < count; i++) {
        long link = moduleList.rva() + 4 + 12L * i;
        long index = file.u32(link);
        long rva = file.u32(link + 8);
        String what = "Crashpad module " + i;
        if (!file.has(rva, 28)) throw dump.error(link + 8, what + ": info at 0x" + Long.toHexString(rva) + " extends past the end of the file");
        Location list = new Location(file.u32(rva + 4), file.u32(rva + 8));
        Location dict = new Location(file.u32(rva + 12), file.u32(rva + 16));
        Location objects = new Location(file.u32(rva + 20), file.u32(rva + 24));
        List<String> strings = list.dataSize() != 0 ? stringList(dump, list.rva(), rva + 8, what + " list annotations") : List.of();
        Map<String, String> simpleMap = dict.dataSize() != 0 ? dictionary(dump, dict.rva(), rva + 16, what + " simple annotations")
            : Map.of();
        List<Annotation> objs = objects.dataSize() != 0 ? annotationList(dump, objects.rva(), rva + 24, what + " annotations")
            : List.of();
        modules.add(new ModuleInfo(index, file.u32(rva), strings, simpleMap, objs));
      }
    }
    return new CrashpadInfo(b.u32(0), Guid.read(b, 4), Guid.read(b, 20), annotations, modules, reserved, mask);
  }

  /** The u32 count at {@code rva} of a list of {@code entrySize}-byte entries that must all be in the file. */
  private static long count(Minidump dump, long rva, int entrySize, long at, String what) {
    ByteView file = dump.file();
    if (!file.has(rva, 4)) throw dump.error(at, what + " at 0x" + Long.toHexString(rva) + " is past the end of the file");
    long count = file.u32(rva);
    if (!file.has(rva + 4, count * entrySize)) {
      throw dump.error(rva, what + " of " + count + " entries extends past the end of the file");
    }
    return count;
  }

  private static Map<String, String> dictionary(Minidump dump, long rva, long at, String what) {
    long count = count(dump, rva, 8, at, what);
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      long entry = rva + 4 + 8L * i;
      String key = dump.utf8String(dump.file().u32(entry), entry, what + " key " + i);
      String value = dump.utf8String(dump.file().u32(entry + 4), entry + 4, what + " value " + i);
      map.putIfAbsent(key, value);
    }
    return map;
  }

  private static List<String> stringList(Minidump dump, long rva, long at, String what) {
    long count = count(dump, rva, 4, at, what);
    List<String> list = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long entry = rva + 4 + 4L * i;
      list.add(dump.utf8String(dump.file().u32(entry), entry, what + " " + i));
    }
    return list;
  }

  private static List<Annotation> annotationList(Minidump dump, long rva, long at, String what) {
    ByteView file = dump.file();
    long count = count(dump, rva, 12, at, what);
    List<Annotation> list = new ArrayList<>((int) count);
    for (int i = 0; i < count; i++) {
      long entry = rva + 4 + 12L * i;
      String name = dump.utf8String(file.u32(entry), entry, what + " " + i + " name");
      long value = file.u32(entry + 8);
      if (!file.has(value, 4)) throw dump.error(entry + 8, what + " " + i + ": value at 0x" + Long.toHexString(value) + " is past the end of the file");
      long length = file.u32(value);
      if (!file.has(value + 4, length) || length > Integer.MAX_VALUE - 16) {
        throw dump.error(value, what + " " + i + ": value of " + length + " bytes extends past the end of the file");
      }
      list.add(new Annotation(name, file.u16(entry + 4), file.bytes(value + 4, (int) length)));
    }
    return list;
  }
}
