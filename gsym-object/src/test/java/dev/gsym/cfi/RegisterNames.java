package dev.gsym.cfi;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

/**
 * llvm-dwarfdump-22's names of the DWARF registers of one architecture, as
 * src-test-data/regenerate-cfi.sh recorded them ({@code cfi/expected/regs/ARCH.txt}: "N NAME" for
 * registers 0-299); registers without a name print as {@code regN}.
 */
final class RegisterNames {
  private final Map<Integer, String> byNumber = new HashMap<>();
  private final Map<String, Integer> byName = new HashMap<>();

  private RegisterNames() {}

  static RegisterNames of(String arch) {
    RegisterNames r = new RegisterNames();
    try {
      for (String line : Files.readAllLines(TestData.path("cfi", "expected", "regs", arch + ".txt"))) {
        int sp = line.indexOf(' ');
        int n = Integer.parseInt(line.substring(0, sp));
        String name = line.substring(sp + 1);
        r.byNumber.put(n, name);
        r.byName.putIfAbsent(name, n); // llvm prints the first DWARF number of a name it maps twice
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return r;
  }

  String name(int n) {
    String s = byNumber.get(n);
    return s != null ? s : "reg" + n;
  }

  /** The register {@code name} stands for, or -1 when it is no register name. */
  int number(String name) {
    Integer n = byName.get(name);
    if (n != null) return n;
    if (name.matches("reg[0-9]+")) return Integer.parseInt(name.substring(3));
    return -1;
  }
}
