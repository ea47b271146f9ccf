package dev.gsym.stackwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Crash reasons minidump_stackwalk prints (the corpus covers Linux SIGSEGV/SIGABRT/SIGILL/SIGFPE,
 * Windows access violations and a fast fail, macOS EXC_BAD_ACCESS and an uncaught NSException); the
 * cases it does not, from Breakpad's table.
 */
class CrashReasonsTest {
  static String reason(int platform, int cpu, int code, int flags, long... params) {
    List<Long> p = java.util.Arrays.stream(params).boxed().toList();
    return CrashReasons.reason(true, platform, cpu, code, flags, params.length, p, new long[] {0});
  }

  @Test
  void reasons() {
    assertThat(reason(CrashReasons.OS_LINUX, 9, 11, 1)).isEqualTo("SIGSEGV /SEGV_MAPERR"); // no space: Breakpad's
    assertThat(reason(CrashReasons.OS_LINUX, 9, 7, 4)).isEqualTo("SIGBUS / BUS_MCEERR_AR");
    assertThat(reason(CrashReasons.OS_ANDROID, 5, 0xffffffff, 0)).isEqualTo("DUMP_REQUESTED");
    assertThat(reason(CrashReasons.OS_LINUX, 9, 99, 3)).isEqualTo("0x00000063 / 0x00000003");
    assertThat(reason(CrashReasons.OS_WIN32_NT, 0, 0xc0000006, 0, 1, 0x1234, 0xc000009c))
        .isEqualTo("EXCEPTION_IN_PAGE_ERROR_WRITE / STATUS_DEVICE_DATA_ERROR");
    assertThat(reason(CrashReasons.OS_WIN32_NT, 0, 0xc0000006, 0, 8, 0x1234, 0x12345678))
        .isEqualTo("EXCEPTION_IN_PAGE_ERROR_EXEC / 0x12345678");
    assertThat(reason(CrashReasons.OS_WIN32_NT, 9, 0xc0000409, 0, 0x46)).isEqualTo("FAST_FAIL_INVALID_FLS_DATA");
    assertThat(reason(CrashReasons.OS_WIN32_NT, 9, 0xc0000409, 0, 0x10)).isEqualTo("EXCEPTION_STACK_BUFFER_OVERRUN");
    assertThat(reason(CrashReasons.OS_MAC_OS_X, CrashReasons.CPU_ARM64_OLD, 1, 0x101)).isEqualTo("EXC_BAD_ACCESS / EXC_ARM_DA_ALIGN");
    assertThat(reason(CrashReasons.OS_MAC_OS_X, 12, 1, 0x101)).isEqualTo("EXC_BAD_ACCESS / 0x00000101"); // arm64: no table
    assertThat(reason(CrashReasons.OS_IOS, 9, 6, 2)).isEqualTo("EXC_BREAKPOINT / EXC_I386_BPT");
    assertThat(reason(CrashReasons.OS_SOLARIS, 0, 0x12, 0)).isEqualTo("SIGCLD | SIGCHLD");
    assertThat(reason(CrashReasons.OS_PS3, 0, 0x16, 0)).isEqualTo("GRAPHIC");
    assertThat(reason(CrashReasons.OS_FUCHSIA, 0, 0x108, 7)).isEqualTo("FATAL_PAGE_FAULT / 0x00000007");
    // no system information: the codes in hex
    assertThat(CrashReasons.reason(false, 0, 0, 11, 1, 0, List.of(), new long[1])).isEqualTo("0x0000000b / 0x00000001");
  }

  @Test
  void addresses() {
    long[] a = {0xffff_ffff_0000_1234L};
    CrashReasons.reason(true, CrashReasons.OS_LINUX, CrashReasons.CPU_ARM, 11, 1, 0, List.of(), a);
    assertThat(a[0]).isEqualTo(0x1234); // 32-bit CPUs: the low half
    long[] w = {0x45};
    CrashReasons.reason(true, CrashReasons.OS_WIN32_NT, CrashReasons.CPU_AMD64, 0xc0000005, 0, 2, List.of(1L, 0xdeadL), w);
    assertThat(w[0]).isEqualTo(0xdead); // an access violation's faulting address is its second parameter
  }
}
