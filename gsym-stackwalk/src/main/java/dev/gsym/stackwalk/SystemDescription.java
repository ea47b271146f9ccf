package dev.gsym.stackwalk;

/**
 * The system the process ran on, in Breakpad's words ({@code SystemInfo} of its processor).
 *
 * @param os the operating system's name ({@code Linux}, {@code Windows NT}, {@code Mac OS X}, ...,
 *     or the platform id in hex), "" without system information
 * @param osShort the short name the walkers test ({@code linux}, {@code windows}, {@code mac},
 *     {@code ios}, {@code android}, ...), "" when unknown
 * @param osVersion {@code major.minor.build}, then a space and the CSD version (service pack, or the
 *     kernel's uname on Linux) when the dump has one
 * @param cpu {@code x86}, {@code amd64}, {@code arm}, {@code arm64}, ... (the architecture in hex
 *     when unknown), "" without system information
 * @param cpuInfo vendor, family, model and stepping (x86), the ARM core and features, or ""
 * @param cpuCount number of processors
 */
public record SystemDescription(String os, String osShort, String osVersion, String cpu, String cpuInfo, int cpuCount) {
  /** What Breakpad reports for a dump without system information. */
  public static final SystemDescription UNKNOWN = new SystemDescription("", "", "", "", "", 0);
}
