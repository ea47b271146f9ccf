package dev.gsym.minidump;

import dev.gsym.io.ByteView;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code MINIDUMP_MISC_INFO} through {@code MINIDUMP_MISC_INFO_5}: process id and times, processor
 * power, integrity, time zone, build strings and XSTATE layout. The stream is one of the five
 * versions' sizes (24, 44, 232, 832, 1364 bytes) or longer than the last (the rest is skipped),
 * and its size_of_info equals the stream's size; fields past the stream's version read as 0.
 *
 * <pre>
 *    0  u32 size_of_info, u32 flags1, u32 process_id,
 *       u32 process_create_time, u32 process_user_time, u32 process_kernel_time        (version 1: 24)
 *   24  u32 processor_max_mhz, processor_current_mhz, processor_mhz_limit,
 *       processor_max_idle_state, processor_current_idle_state                          (version 2: 44)
 *   44  u32 process_integrity_level, process_execute_flags, protected_process, time_zone_id,
 *   60  TIME_ZONE_INFORMATION time_zone (172 bytes)                                     (version 3: 232)
 *  232  u16 build_string[260], u16 dbg_bld_str[40]                                      (version 4: 832)
 *  832  XSTATE_CONFIG_FEATURE_MSC_INFO xstate_data (528 bytes), u32 process_cookie      (version 5: 1364)
 * </pre>
 *
 * Breakpad prints each field only when {@code flags1} marks it valid ({@code FLAGS1_*}).
 */
public record MiscInfo(long sizeOfInfo, long flags1, long processId, long processCreateTime, long processUserTime,
    long processKernelTime, long processorMaxMhz, long processorCurrentMhz, long processorMhzLimit, long processorMaxIdleState,
    long processorCurrentIdleState, long processIntegrityLevel, long processExecuteFlags, long protectedProcess,
    long timeZoneId, TimeZone timeZone, String buildString, String dbgBldStr, XState xstate, long processCookie) {
  public static final int SIZE_1 = 24;
  public static final int SIZE_2 = 44;
  public static final int SIZE_3 = 232;
  public static final int SIZE_4 = 832;
  public static final int SIZE_5 = 1364;

  public static final int FLAGS1_PROCESS_ID = 0x1;
  public static final int FLAGS1_PROCESS_TIMES = 0x2;
  public static final int FLAGS1_PROCESSOR_POWER_INFO = 0x4;
  public static final int FLAGS1_PROCESS_INTEGRITY = 0x10;
  public static final int FLAGS1_PROCESS_EXECUTE_FLAGS = 0x20;
  public static final int FLAGS1_TIMEZONE = 0x40;
  public static final int FLAGS1_PROTECTED_PROCESS = 0x80;
  public static final int FLAGS1_BUILDSTRING = 0x100;
  public static final int FLAGS1_PROCESS_COOKIE = 0x200;

  /** {@code SYSTEMTIME}: eight u16 fields. */
  public record SystemTime(int year, int month, int dayOfWeek, int day, int hour, int minute, int second, int milliseconds) {
    static SystemTime read(ByteView b, long at) {
      return new SystemTime(b.u16(at), b.u16(at + 2), b.u16(at + 4), b.u16(at + 6), b.u16(at + 8), b.u16(at + 10), b.u16(at + 12),
          b.u16(at + 14));
    }
  }

  /**
   * {@code TIME_ZONE_INFORMATION}: i32 bias, u16 standard_name[32], SYSTEMTIME standard_date, i32
   * standard_bias, u16 daylight_name[32], SYSTEMTIME daylight_date, i32 daylight_bias (172 bytes).
   */
  public record TimeZone(int bias, String standardName, SystemTime standardDate, int standardBias, String daylightName,
      SystemTime daylightDate, int daylightBias) {}

  /**
   * {@code XSTATE_CONFIG_FEATURE_MSC_INFO}: u32 size_of_info, u32 context_size, u64
   * enabled_features, then 64 features of (u32 offset, u32 size).
   *
   * @param features offset and size of feature {@code i} at {@code [2i]} and {@code [2i + 1]}
   */
  public record XState(long sizeOfInfo, long contextSize, long enabledFeatures, List<Long> features) {
    /** Copies the lists. */
    public XState {
      features = List.copyOf(features);
    }
  }

  static MiscInfo read(Minidump dump, DirectoryEntry e) {
    long size = e.location().dataSize();
    if (size != SIZE_1 && size != SIZE_2 && size != SIZE_3 && size != SIZE_4 && size < SIZE_5) {
      throw dump.error(e.offset() + 4, "misc info stream of " + size + " bytes, not 24, 44, 232, 832 or at least 1364");
    }
    ByteView stream = dump.bytes(e.location(), e.offset() + 4, "misc info stream");
    if (stream.u32(0) != size) {
      throw dump.error(stream.fileOffset(), "misc info size_of_info " + stream.u32(0) + " is not the stream's size " + size);
    }
    byte[] padded = new byte[SIZE_5]; // the versions' fields past the stream read as 0, as Breakpad's zeroed struct
    int n = (int) Math.min(size, SIZE_5);
    System.arraycopy(stream.bytes(0, n), 0, padded, 0, n);
    ByteView b = ByteView.of(padded, dump.byteOrder(), dump.source());
    long info = b.u32(0);
    TimeZone tz = new TimeZone(b.s32(60), info > SIZE_2 ? Utf16.field(b, 64, 64) : "", SystemTime.read(b, 128), b.s32(144),
        info > SIZE_2 ? Utf16.field(b, 148, 64) : "", SystemTime.read(b, 212), b.s32(228));
    List<Long> features = new ArrayList<>();
    for (int i = 0; i < 128; i++) features.add(b.u32(848 + 4L * i));
    XState xstate = new XState(b.u32(832), b.u32(836), b.u64(840), features);
    return new MiscInfo(info, b.u32(4), b.u32(8), b.u32(12), b.u32(16), b.u32(20), b.u32(24), b.u32(28), b.u32(32), b.u32(36),
        b.u32(40), b.u32(44), b.u32(48), b.u32(52), b.u32(56), tz, info > SIZE_3 ? Utf16.field(b, 232, 520) : "",
        info > SIZE_3 ? Utf16.field(b, 752, 80) : "", xstate, b.u32(1360));
  }

  /** Whether {@code flag} of {@code flags1} is set. */
  public boolean has(int flag) {
    return (flags1 & flag) != 0;
  }
}
