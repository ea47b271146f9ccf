package dev.gsym.elf;

import dev.gsym.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.tukaani.xz.XZInputStream;

/**
 * The crash corpus of src-test-data/crash (regenerate.sh there): per core NAME, {@code
 * cores/NAME.core.xz}, gdb's answers {@code gdb/NAME.txt}, eu-unstrip's modules {@code
 * gdb/NAME.modules.txt}, and the program {@code bin/PROGRAM} (NAME without a {@code .gdb} suffix).
 * Cores are unpacked once into {@code target/crash-cores}.
 */
final class CrashCorpus {
  private CrashCorpus() {}

  static Path dir() {
    return TestData.repoRoot().resolve("src-test-data/crash");
  }

  /** Every core's name ({@code null-x86_64-fp}, {@code null-x86_64-fp.gdb}, ...), sorted. */
  static List<String> names() {
    try (Stream<Path> s = Files.list(dir().resolve("cores"))) {
      List<String> names = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".core.xz"))
          .map(n -> n.substring(0, n.length() - ".core.xz".length())).sorted().toList();
      if (names.isEmpty()) throw new IllegalStateException("no cores in " + dir().resolve("cores"));
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The unpacked core NAME (unpacked on first use). */
  static synchronized Path core(String name) {
    try {
      Path out = Path.of("target", "crash-cores", name + ".core").toAbsolutePath();
      Path xz = dir().resolve("cores").resolve(name + ".core.xz");
      if (Files.isRegularFile(out) && Files.getLastModifiedTime(out).compareTo(Files.getLastModifiedTime(xz)) >= 0) return out;
      Files.createDirectories(out.getParent());
      Path tmp = Files.createTempFile(out.getParent(), name, ".tmp");
      try (InputStream in = new XZInputStream(Files.newInputStream(xz))) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      }
      Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] coreBytes(String name) {
    try {
      return Files.readAllBytes(core(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static GdbAnswers gdb(String name) {
    return GdbAnswers.parse(dir().resolve("gdb").resolve(name + ".txt"));
  }

  static List<String> modulesText(String name) {
    try {
      return Files.readAllLines(dir().resolve("gdb").resolve(name + ".modules.txt"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The program that crashed ({@code null-x86_64-fp} for both of its cores). */
  static String program(String name) {
    return name.endsWith(".gdb") ? name.substring(0, name.length() - 4) : name;
  }

  static Path binary(String name) {
    return dir().resolve("bin").resolve(program(name));
  }

  /** Whether the program was built with frame pointers. */
  static boolean framePointers(String name) {
    return program(name).endsWith("-fp");
  }

  /** The architecture in the core's name: x86_64, i386 or aarch64. */
  static String arch(String name) {
    for (String a : new String[] {"x86_64", "i386", "aarch64"}) if (name.contains("-" + a + "-")) return a;
    throw new IllegalArgumentException(name);
  }

  static boolean is64(String name) {
    return !arch(name).equals("i386");
  }
}
