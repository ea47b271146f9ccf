package dev.gsym.stackwalk;

/**
 * Why the process crashed, in Breakpad's words.
 *
 * @param reason {@code SIGSEGV /SEGV_MAPERR}, {@code EXCEPTION_ACCESS_VIOLATION_WRITE}, {@code
 *     EXC_BAD_ACCESS / KERN_INVALID_ADDRESS}, ..., or the exception code and flags in hex
 * @param address the faulting address (32 bits on 32-bit CPUs)
 */
public record CrashInfo(String reason, long address) {}
