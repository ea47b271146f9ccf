package dev.gsym.minidump;

/**
 * Stream types of the minidump directory: Microsoft's ({@code MINIDUMP_STREAM_TYPE}), Breakpad's
 * ({@code 0x4767xxxx}, "Gg") and Crashpad's ({@code 0x4350xxxx}, "CP").
 */
public final class StreamType {
  /** Stream type: unused entry. */
  public static final int UNUSED = 0;
  /** Stream type: reserved. */
  public static final int RESERVED_0 = 1;
  /** Stream type: reserved. */
  public static final int RESERVED_1 = 2;
  /** The thread list stream. */
  public static final int THREAD_LIST = 3;
  /** The module list stream. */
  public static final int MODULE_LIST = 4;
  /** The memory list stream. */
  public static final int MEMORY_LIST = 5;
  /** The exception stream. */
  public static final int EXCEPTION = 6;
  /** The system info stream. */
  public static final int SYSTEM_INFO = 7;
  /** The extended thread list stream. */
  public static final int THREAD_EX_LIST = 8;
  /** The memory list stream with 64-bit sizes (full-memory dumps). */
  public static final int MEMORY_64_LIST = 9;
  /** The comment stream (ANSI text). */
  public static final int COMMENT_A = 10;
  /** The comment stream (UTF-16 text). */
  public static final int COMMENT_W = 11;
  /** The handle data stream. */
  public static final int HANDLE_DATA = 12;
  /** The function table stream. */
  public static final int FUNCTION_TABLE = 13;
  /** The unloaded module list stream. */
  public static final int UNLOADED_MODULE_LIST = 14;
  /** The misc info stream. */
  public static final int MISC_INFO = 15;
  /** The memory info list stream. */
  public static final int MEMORY_INFO_LIST = 16;
  /** The thread info list stream. */
  public static final int THREAD_INFO_LIST = 17;
  /** The handle operation list stream. */
  public static final int HANDLE_OPERATION_LIST = 18;
  /** The token stream. */
  public static final int TOKEN = 19;
  /** The JavaScript data stream. */
  public static final int JAVASCRIPT_DATA = 20;
  /** The system memory info stream. */
  public static final int SYSTEM_MEMORY_INFO = 21;
  /** The process vm counters stream. */
  public static final int PROCESS_VM_COUNTERS = 22;
  /** The thread name list stream. */
  public static final int THREAD_NAME_LIST = 24;
  /** Stream type: last type reserved by Microsoft. */
  public static final int LAST_RESERVED = 0xffff;
  /** The Breakpad information stream. */
  public static final int BREAKPAD_INFO = 0x47670001;
  /** The assertion information stream. */
  public static final int ASSERTION_INFO = 0x47670002;
  /** The Linux /proc/cpuinfo stream. */
  public static final int LINUX_CPU_INFO = 0x47670003;
  /** The Linux /proc/PID/status stream. */
  public static final int LINUX_PROC_STATUS = 0x47670004;
  /** The Linux /etc/lsb-release stream. */
  public static final int LINUX_LSB_RELEASE = 0x47670005;
  /** The Linux /proc/PID/cmdline stream. */
  public static final int LINUX_CMD_LINE = 0x47670006;
  /** The Linux /proc/PID/environ stream. */
  public static final int LINUX_ENVIRON = 0x47670007;
  /** The Linux /proc/PID/auxv stream. */
  public static final int LINUX_AUXV = 0x47670008;
  /** The Linux /proc/PID/maps stream. */
  public static final int LINUX_MAPS = 0x47670009;
  /** The Linux dynamic linker state stream (r_debug). */
  public static final int LINUX_DSO_DEBUG = 0x4767000a;
  /** The Crashpad information stream. */
  public static final int CRASHPAD_INFO = 0x43500001;

  private StreamType() {}

  /**
   * Whether a dump may hold at most one stream of this type: Breakpad refuses a dump with two of
   * these (for the other types the last entry of a type is the one read).
   */
  public static boolean unique(int type) {
    return switch (type) {
      case THREAD_LIST, THREAD_NAME_LIST, MODULE_LIST, MEMORY_LIST, EXCEPTION, SYSTEM_INFO, MISC_INFO, BREAKPAD_INFO,
          CRASHPAD_INFO -> true;
      default -> false;
    };
  }

  /** Breakpad's name of {@code type} (minidump_dump prints it), or {@code "unknown"}. */
  public static String name(int type) {
    return switch (type) {
      case UNUSED -> "MD_UNUSED_STREAM";
      case RESERVED_0 -> "MD_RESERVED_STREAM_0";
      case RESERVED_1 -> "MD_RESERVED_STREAM_1";
      case THREAD_LIST -> "MD_THREAD_LIST_STREAM";
      case THREAD_NAME_LIST -> "MD_THREAD_NAME_LIST_STREAM";
      case MODULE_LIST -> "MD_MODULE_LIST_STREAM";
      case MEMORY_LIST -> "MD_MEMORY_LIST_STREAM";
      case EXCEPTION -> "MD_EXCEPTION_STREAM";
      case SYSTEM_INFO -> "MD_SYSTEM_INFO_STREAM";
      case THREAD_EX_LIST -> "MD_THREAD_EX_LIST_STREAM";
      case MEMORY_64_LIST -> "MD_MEMORY_64_LIST_STREAM";
      case COMMENT_A -> "MD_COMMENT_STREAM_A";
      case COMMENT_W -> "MD_COMMENT_STREAM_W";
      case HANDLE_DATA -> "MD_HANDLE_DATA_STREAM";
      case FUNCTION_TABLE -> "MD_FUNCTION_TABLE_STREAM";
      case UNLOADED_MODULE_LIST -> "MD_UNLOADED_MODULE_LIST_STREAM";
      case MISC_INFO -> "MD_MISC_INFO_STREAM";
      case MEMORY_INFO_LIST -> "MD_MEMORY_INFO_LIST_STREAM";
      case THREAD_INFO_LIST -> "MD_THREAD_INFO_LIST_STREAM";
      case HANDLE_OPERATION_LIST -> "MD_HANDLE_OPERATION_LIST_STREAM";
      case TOKEN -> "MD_TOKEN_STREAM";
      case JAVASCRIPT_DATA -> "MD_JAVASCRIPT_DATA_STREAM";
      case SYSTEM_MEMORY_INFO -> "MD_SYSTEM_MEMORY_INFO_STREAM";
      case PROCESS_VM_COUNTERS -> "MD_PROCESS_VM_COUNTERS_STREAM";
      case LAST_RESERVED -> "MD_LAST_RESERVED_STREAM";
      case BREAKPAD_INFO -> "MD_BREAKPAD_INFO_STREAM";
      case ASSERTION_INFO -> "MD_ASSERTION_INFO_STREAM";
      case LINUX_CPU_INFO -> "MD_LINUX_CPU_INFO";
      case LINUX_PROC_STATUS -> "MD_LINUX_PROC_STATUS";
      case LINUX_LSB_RELEASE -> "MD_LINUX_LSB_RELEASE";
      case LINUX_CMD_LINE -> "MD_LINUX_CMD_LINE";
      case LINUX_ENVIRON -> "MD_LINUX_ENVIRON";
      case LINUX_AUXV -> "MD_LINUX_AUXV";
      case LINUX_MAPS -> "MD_LINUX_MAPS";
      case LINUX_DSO_DEBUG -> "MD_LINUX_DSO_DEBUG";
      case CRASHPAD_INFO -> "MD_CRASHPAD_INFO_STREAM";
      default -> "unknown";
    };
  }
}
