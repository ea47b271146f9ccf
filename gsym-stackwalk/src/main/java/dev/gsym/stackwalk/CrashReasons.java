package dev.gsym.stackwalk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The crash reason minidump_stackwalk prints for an exception code and flags, per operating system
 * (and for macOS per CPU), with the names of Breakpad's processor ({@code GetCrashReason}): Linux
 * signals and {@code si_code}s, Windows exception codes (access violation kinds, fast-fail codes,
 * the NTSTATUS of in-page errors), Mach exceptions and codes, Solaris signals, PS3 and Fuchsia
 * codes. A code without a name prints as {@code 0xCODE / 0xFLAGS}.
 */
final class CrashReasons {
  private CrashReasons() {}

  // processor architectures and platforms (MINIDUMP_SYSTEM_INFO)
  static final int CPU_X86 = 0;
  static final int CPU_MIPS = 1;
  static final int CPU_PPC = 3;
  static final int CPU_SHX = 4;
  static final int CPU_ARM = 5;
  static final int CPU_AMD64 = 9;
  static final int CPU_X86_WIN64 = 10;
  static final int CPU_ARM64_OLD = 0x8003;
  static final int OS_WIN32_WINDOWS = 1;
  static final int OS_WIN32_NT = 2;
  static final int OS_MAC_OS_X = 0x8101;
  static final int OS_IOS = 0x8102;
  static final int OS_LINUX = 0x8201;
  static final int OS_SOLARIS = 0x8202;
  static final int OS_ANDROID = 0x8203;
  static final int OS_PS3 = 0x8204;
  static final int OS_FUCHSIA = 0x8206;

  /**
   * The reason for exception {@code code} with {@code flags} and {@code parameters}; {@code
   * address[0]} (the exception address on entry) is replaced where the reason has a better one (the
   * faulting address of a Windows access violation) and masked to 32 bits on 32-bit CPUs. Without
   * system information ({@code hasSystem} false) only the hex form is known and the address is kept.
   */
  static String reason(boolean hasSystem, int platform, int cpu, int code, int flags, long numberParameters,
      List<Long> parameters, long[] address) {
    String flagsHex = hex8(flags);
    String reason = hex8(code) + " / " + flagsHex;
    if (!hasSystem) return reason;
    switch (platform) {
      case OS_FUCHSIA -> {
        String name = FUCHSIA.get(code);
        if (name != null) reason = name + " / " + flagsHex;
      }
      case OS_MAC_OS_X, OS_IOS -> reason = mac(cpu, code, flags, flagsHex, reason);
      case OS_WIN32_NT, OS_WIN32_WINDOWS -> reason = windows(code, numberParameters, parameters, address, reason);
      case OS_ANDROID, OS_LINUX -> reason = linux(code, flags, flagsHex, reason);
      case OS_SOLARIS -> reason = SOLARIS.getOrDefault(code, reason);
      case OS_PS3 -> reason = PS3.getOrDefault(code, reason);
      default -> { }
    }
    if (cpu == CPU_X86 || cpu == CPU_MIPS || cpu == CPU_PPC || cpu == CPU_SHX || cpu == CPU_ARM || cpu == CPU_X86_WIN64) {
      address[0] &= 0xffff_ffffL;
    }
    return reason;
  }

  private static String hex8(int v) {
    return String.format("0x%08x", v);
  }

  // ------------------------------------------------------------------ Linux and Android

  private static String linux(int code, int flags, String flagsHex, String reason) {
    return switch (code) {
      case 4 -> "SIGILL / " + name(flags, flagsHex, "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR", "ILL_ILLTRP", "ILL_PRVOPC",
          "ILL_PRVREG", "ILL_COPROC", "ILL_BADSTK");
      case 7 -> "SIGBUS / " + name(flags, flagsHex, "BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO");
      case 8 -> "SIGFPE / " + name(flags, flagsHex, "FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV", "FPE_FLTOVF", "FPE_FLTUND",
          "FPE_FLTRES", "FPE_FLTINV", "FPE_FLTSUB");
      // Breakpad writes this one without a space after the slash
      case 11 -> "SIGSEGV /" + name(flags, flagsHex, "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR");
      case 0xffffffff -> "DUMP_REQUESTED";
      default -> LINUX_SIGNALS.getOrDefault(code, reason);
    };
  }

  /** {@code names[flags - 1]} for flags 1..n, else the flags in hex. */
  private static String name(int flags, String flagsHex, String... names) {
    return flags >= 1 && flags <= names.length ? names[flags - 1] : flagsHex;
  }

  private static final Map<Integer, String> LINUX_SIGNALS = numbered(1, "SIGHUP", "SIGINT", "SIGQUIT", null, "SIGTRAP",
      "SIGABRT", null, null, "SIGKILL", "SIGUSR1", null, "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD",
      "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
      "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS");

  private static final Map<Integer, String> SOLARIS = numbered(1, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP",
      "SIGIOT | SIGABRT", "SIGEMT", "SIGFPE", "SIGKILL", "SIGBUS", "SIGSEGV", "SIGSYS", "SIGPIPE", "SIGALRM", "SIGTERM",
      "SIGUSR1", "SIGUSR2", "SIGCLD | SIGCHLD", "SIGPWR", "SIGWINCH", "SIGURG", "SIGPOLL | SIGIO", "SIGSTOP", "SIGTSTP",
      "SIGCONT", "SIGTTIN", "SIGTTOU", "SIGVTALRM", "SIGPROF", "SIGXCPU", "SIGXFSZ", "SIGWAITING", "SIGLWP", "SIGFREEZE",
      "SIGTHAW", "SIGCANCEL", "SIGLOST", "SIGXRES", "SIGJVM1", "SIGJVM2");

  private static final Map<Integer, String> PS3 = numbered(0, "UNKNOWN", "TRAP_EXCEP", "PRIV_INSTR", "ILLEGAL_INSTR",
      "INSTR_STORAGE", "INSTR_SEGMENT", "DATA_STORAGE", "DATA_SEGMENT", "FLOAT_POINT", "DABR_MATCH", "ALIGN_EXCEP",
      "MEMORY_ACCESS", "COPRO_ALIGN", "COPRO_INVALID_COM", "COPRO_ERR", "COPRO_FIR", "COPRO_DATA_SEGMENT",
      "COPRO_DATA_STORAGE", "COPRO_STOP_INSTR", "COPRO_HALT_INSTR", "COPRO_HALTINSTR_UNKNOWN", "COPRO_MEMORY_ACCESS", "GRAPHIC");

  private static final Map<Integer, String> FUCHSIA = Map.of(0x8, "GENERAL", 0x108, "FATAL_PAGE_FAULT", 0x208,
      "UNDEFINED_INSTRUCTION", 0x308, "SW_BREAKPOINT", 0x408, "HW_BREAKPOINT", 0x508, "UNALIGNED_ACCESS", 0x8008,
      "THREAD_STARTING", 0x8108, "THREAD_EXITING", 0x8208, "POLICY_ERROR", 0x8308, "PROCESS_STARTING");

  /** {@code names[i]} for code {@code first + i} (null entries have no name). */
  private static Map<Integer, String> numbered(int first, String... names) {
    Map<Integer, String> m = new HashMap<>();
    for (int i = 0; i < names.length; i++) if (names[i] != null) m.put(first + i, names[i]);
    return Map.copyOf(m);
  }

  // ------------------------------------------------------------------ macOS and iOS

  private static String mac(int cpu, int code, int flags, String flagsHex, String reason) {
    boolean arm = cpu == CPU_ARM || cpu == CPU_ARM64_OLD;
    boolean x86 = cpu == CPU_X86 || cpu == CPU_AMD64;
    boolean ppc = cpu == CPU_PPC;
    return switch (code) {
      case 1 -> "EXC_BAD_ACCESS / " + switch (flags) {
        case 1 -> "KERN_INVALID_ADDRESS";
        case 2 -> "KERN_PROTECTION_FAILURE";
        case 8 -> "KERN_NO_ACCESS";
        case 9 -> "KERN_MEMORY_FAILURE";
        case 10 -> "KERN_MEMORY_ERROR";
        case 50 -> "KERN_CODESIGN_ERROR";
        default -> arm ? pick(flags, flagsHex, 0x101, "EXC_ARM_DA_ALIGN", 0x102, "EXC_ARM_DA_DEBUG")
            : ppc ? pick(flags, flagsHex, 0x101, "EXC_PPC_VM_PROT_READ", 0x102, "EXC_PPC_BADSPACE", 0x103, "EXC_PPC_UNALIGNED")
            : x86 ? pick(flags, flagsHex, 0xd, "EXC_I386_GPFLT")
            : flagsHex;
      };
      case 2 -> "EXC_BAD_INSTRUCTION / " + (arm ? pick(flags, flagsHex, 1, "EXC_ARM_UNDEFINED")
          : ppc ? pick(flags, flagsHex, 1, "EXC_PPC_INVALID_SYSCALL", 2, "EXC_PPC_UNIPL_INST", 3, "EXC_PPC_PRIVINST", 4,
              "EXC_PPC_PRIVREG", 5, "EXC_PPC_TRACE", 6, "EXC_PPC_PERFMON")
          : x86 ? pick(flags, flagsHex, 1, "EXC_I386_INVOP", 0xa, "EXC_I386_INVTSSFLT", 0xb, "EXC_I386_SEGNPFLT", 0xc,
              "EXC_I386_STKFLT", 0xd, "EXC_I386_GPFLT", 0x11, "EXC_I386_ALIGNFLT")
          : flagsHex);
      case 3 -> "EXC_ARITHMETIC / " + (ppc ? pick(flags, flagsHex, 1, "EXC_PPC_OVERFLOW", 2, "EXC_PPC_ZERO_DIVIDE", 3,
              "EXC_FLT_INEXACT", 4, "EXC_PPC_FLT_ZERO_DIVIDE", 5, "EXC_PPC_FLT_UNDERFLOW", 6, "EXC_PPC_FLT_OVERFLOW", 7,
              "EXC_PPC_FLT_NOT_A_NUMBER", 8, "EXC_PPC_NOEMULATION", 9, "EXC_PPC_ALTIVECASSIST")
          : x86 ? pick(flags, flagsHex, 1, "EXC_I386_DIV", 2, "EXC_I386_INTO", 3, "EXC_I386_NOEXT", 4, "EXC_I386_EXTOVR", 5,
              "EXC_I386_EXTERR", 6, "EXC_I386_EMERR", 7, "EXC_I386_BOUND", 8, "EXC_I386_SSEEXTERR")
          : flagsHex);
      case 4 -> "EXC_EMULATION / " + flagsHex;
      case 5 -> "EXC_SOFTWARE / " + pick(flags, flagsHex, 0x10002, "SIGABRT", 0xdeadc0de, "UNCAUGHT_NS_EXCEPTION", 1,
          "EXC_PPC_TRAP", 0x10100, "EXC_PPC_MIGRATE");
      case 6 -> "EXC_BREAKPOINT / " + (arm ? pick(flags, flagsHex, 0x101, "EXC_ARM_DA_ALIGN", 0x102, "EXC_ARM_DA_DEBUG", 1,
              "EXC_ARM_BREAKPOINT")
          : ppc ? pick(flags, flagsHex, 1, "EXC_PPC_BREAKPOINT")
          : x86 ? pick(flags, flagsHex, 1, "EXC_I386_SGL", 2, "EXC_I386_BPT")
          : flagsHex);
      case 7 -> "EXC_SYSCALL / " + flagsHex;
      case 8 -> "EXC_MACH_SYSCALL / " + flagsHex;
      case 9 -> "EXC_RPC_ALERT / " + flagsHex;
      case 0xb -> "EXC_RESOURCE / " + flagsHex;
      case 0xc -> "EXC_GUARD / " + flagsHex;
      case 0x43507378 -> "Simulated Exception";
      case 0x43506e78 -> "Uncaught NSException";
      default -> reason;
    };
  }

  /** The name paired with {@code value} in {@code pairs} (value, name, value, name, ...), else {@code otherwise}. */
  private static String pick(int value, String otherwise, Object... pairs) {
    for (int i = 0; i < pairs.length; i += 2) if ((int) pairs[i] == value) return (String) pairs[i + 1];
    return otherwise;
  }

  // ------------------------------------------------------------------ Windows

  private static String windows(int code, long numberParameters, List<Long> parameters, long[] address, String reason) {
    switch (code) {
      case 0xc0000005, 0xc0000006 -> { // access violation, in-page error
        boolean inPage = code == 0xc0000006;
        String base = inPage ? "EXCEPTION_IN_PAGE_ERROR" : "EXCEPTION_ACCESS_VIOLATION";
        String r = base;
        if (numberParameters >= 1) {
          r = switch ((int) parameter(parameters, 0)) {
            case 0 -> base + "_READ";
            case 1 -> base + "_WRITE";
            case 8 -> base + "_EXEC";
            default -> base;
          };
        }
        if (numberParameters >= 2) address[0] = parameter(parameters, 1);
        if (inPage && numberParameters >= 3) r = r + " / " + ntStatus((int) parameter(parameters, 2));
        return r;
      }
      case 0xc0000409 -> { // stack buffer overrun: the fast-fail code
        if (numberParameters >= 1) {
          String name = FAST_FAIL.get((int) parameter(parameters, 0));
          if (name != null) return "FAST_FAIL_" + name;
        }
        return "EXCEPTION_STACK_BUFFER_OVERRUN";
      }
      default -> {
        return WINDOWS.getOrDefault(code, reason);
      }
    }
  }

  /** Parameter {@code i}; the record keeps at most 15 (a larger count reads the missing ones as 0). */
  private static long parameter(List<Long> parameters, int i) {
    return i < parameters.size() ? parameters.get(i) : 0;
  }

  private static final Map<Integer, String> WINDOWS = Map.ofEntries(
      Map.entry(0x40010005, "DBG_CONTROL_C"),
      Map.entry(0x80000001, "EXCEPTION_GUARD_PAGE"),
      Map.entry(0x80000002, "EXCEPTION_DATATYPE_MISALIGNMENT"),
      Map.entry(0x80000003, "EXCEPTION_BREAKPOINT"),
      Map.entry(0x80000004, "EXCEPTION_SINGLE_STEP"),
      Map.entry(0xc0000008, "EXCEPTION_INVALID_HANDLE"),
      Map.entry(0xc000001d, "EXCEPTION_ILLEGAL_INSTRUCTION"),
      Map.entry(0xc0000025, "EXCEPTION_NONCONTINUABLE_EXCEPTION"),
      Map.entry(0xc0000026, "EXCEPTION_INVALID_DISPOSITION"),
      Map.entry(0xc000008c, "EXCEPTION_BOUNDS_EXCEEDED"),
      Map.entry(0xc000008d, "EXCEPTION_FLT_DENORMAL_OPERAND"),
      Map.entry(0xc000008e, "EXCEPTION_FLT_DIVIDE_BY_ZERO"),
      Map.entry(0xc000008f, "EXCEPTION_FLT_INEXACT_RESULT"),
      Map.entry(0xc0000090, "EXCEPTION_FLT_INVALID_OPERATION"),
      Map.entry(0xc0000091, "EXCEPTION_FLT_OVERFLOW"),
      Map.entry(0xc0000092, "EXCEPTION_FLT_STACK_CHECK"),
      Map.entry(0xc0000093, "EXCEPTION_FLT_UNDERFLOW"),
      Map.entry(0xc0000094, "EXCEPTION_INT_DIVIDE_BY_ZERO"),
      Map.entry(0xc0000095, "EXCEPTION_INT_OVERFLOW"),
      Map.entry(0xc0000096, "EXCEPTION_PRIV_INSTRUCTION"),
      Map.entry(0xc00000fd, "EXCEPTION_STACK_OVERFLOW"),
      Map.entry(0xc00000ff, "EXCEPTION_BAD_FUNCTION_TABLE"),
      Map.entry(0xc0000194, "EXCEPTION_POSSIBLE_DEADLOCK"),
      Map.entry(0xc0000374, "EXCEPTION_HEAP_CORRUPTION"),
      Map.entry(0xe0000008, "Out of Memory"),
      Map.entry(0xe06d7363, "Unhandled C++ Exception"),
      Map.entry(0x0517a7ed, "Simulated Exception"));

  /** FAST_FAIL_ codes (without the prefix); 0 (the /GS case) and 0xf-0x11 have none. */
  private static final Map<Integer, String> FAST_FAIL;

  static {
    Map<Integer, String> m = new HashMap<>(numbered(1, "VTGUARD_CHECK_FAILURE", "STACK_COOKIE_CHECK_FAILURE",
        "CORRUPT_LIST_ENTRY", "INCORRECT_STACK", "INVALID_ARG", "GS_COOKIE_INIT", "FATAL_APP_EXIT", "RANGE_CHECK_FAILURE",
        "UNSAFE_REGISTRY_ACCESS", "GUARD_ICALL_CHECK_FAILURE", "GUARD_WRITE_CHECK_FAILURE", "INVALID_FIBER_SWITCH",
        "INVALID_SET_OF_CONTEXT", "INVALID_REFERENCE_COUNT"));
    m.putAll(numbered(0x12, "INVALID_JUMP_BUFFER", "MRDATA_MODIFIED", "CERTIFICATION_FAILURE", "INVALID_EXCEPTION_CHAIN",
        "CRYPTO_LIBRARY", "INVALID_CALL_IN_DLL_CALLOUT", "INVALID_IMAGE_BASE", "DLOAD_PROTECTION_FAILURE",
        "UNSAFE_EXTENSION_CALL", "DEPRECATED_SERVICE_INVOKED", "INVALID_BUFFER_ACCESS", "INVALID_BALANCED_TREE",
        "INVALID_NEXT_THREAD", "GUARD_ICALL_CHECK_SUPPRESSED", "APCS_DISABLED", "INVALID_IDLE_STATE",
        "MRDATA_PROTECTION_FAILURE", "UNEXPECTED_HEAP_EXCEPTION", "INVALID_LOCK_STATE", "GUARD_JUMPTABLE",
        "INVALID_LONGJUMP_TARGET", "INVALID_DISPATCH_CONTEXT", "INVALID_THREAD", "INVALID_SYSCALL_NUMBER",
        "INVALID_FILE_OPERATION", "LPAC_ACCESS_DENIED", "GUARD_SS_FAILURE", "LOADER_CONTINUITY_FAILURE",
        "GUARD_EXPORT_SUPPRESSION_FAILURE", "INVALID_CONTROL_STACK", "SET_CONTEXT_DENIED", "INVALID_IAT",
        "HEAP_METADATA_CORRUPTION", "PAYLOAD_RESTRICTION_VIOLATION", "LOW_LABEL_ACCESS_DENIED", "ENCLAVE_CALL_FAILURE",
        "UNHANDLED_LSS_EXCEPTON", "ADMINLESS_ACCESS_DENIED", "UNEXPECTED_CALL", "CONTROL_INVALID_RETURN_ADDRESS",
        "UNEXPECTED_HOST_BEHAVIOR", "FLAGS_CORRUPTION", "VEH_CORRUPTION", "ETW_CORRUPTION", "RIO_ABORT", "INVALID_PFN",
        "GUARD_ICALL_CHECK_FAILURE_XFG", "CAST_GUARD", "HOST_VISIBILITY_CHANGE", "KERNEL_CET_SHADOW_STACK_ASSIST",
        "PATCH_CALLBACK_FAILED", "NTDLL_PATCH_FAILED", "INVALID_FLS_DATA"));
    FAST_FAIL = Map.copyOf(m);
  }

  /** Breakpad's names of NTSTATUS error codes (0xC0000000-), the code in hex for any other. */
  static String ntStatus(int status) {
    String name = NtStatus.NAMES.get(status);
    return name != null ? name : hex8(status);
  }

  /** The names of {@code ntstatus.txt} ("code name" lines), loaded on first use. */
  private static final class NtStatus {
    static final Map<Integer, String> NAMES = load();

    private static Map<Integer, String> load() {
      Map<Integer, String> m = new HashMap<>();
      try (InputStream in = CrashReasons.class.getResourceAsStream("ntstatus.txt")) {
        if (in == null) throw new IllegalStateException("ntstatus.txt is missing from the jar");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
        for (String line; (line = r.readLine()) != null; ) {
          int space = line.indexOf(' ');
          if (space > 0) m.put((int) Long.parseLong(line.substring(0, space), 16), line.substring(space + 1));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return Map.copyOf(m);
    }
  }
}
